// Validates the Kubernetes manifests of deploy/kubernetes offline; run by ../verify.sh, which
// installs this folder's packages first. Prints PASS/FAIL lines; exits 1 on any failure.
//
// 1. Schema: every document is validated against the OpenAPI schema of its kind, Kubernetes
//    1.36 (kubernetes-models 5.1) and the Prometheus Operator's CRDs
//    (@kubernetes-models/prometheus-operator 6.0): types, required fields, enums, formats.
// 2. Unknown fields: those schemas allow any extra field, where the API server (strict field
//    validation) rejects them, so every document is also type-checked by TypeScript as an
//    object literal of its model's interface, whose excess-property check names a misspelt
//    field.
// 3. Consistency: selectors match the pod labels, named ports exist, the autoscaler's metric
//    is served by the adapter rule, the shutdown fits in the termination grace period, the
//    generated resources hold exactly prometheus/alerts.yml and grafana/dashboards/*.json, and
//    kustomization.yaml lists every resource.
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { basename, dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { isDeepStrictEqual } from "node:util";
import { parse, parseAllDocuments } from "yaml";

const tools = dirname(fileURLToPath(import.meta.url));
const dir = dirname(tools);
const root = dirname(dirname(dir));
let passed = 0;
let failed = 0;
const pass = (message) => { passed++; console.log(`PASS ${message}`); };
const fail = (message) => { failed++; console.log(`FAIL ${message}`); };
const expect = (ok, message, detail = "") => (ok ? pass(message) : fail(detail ? `${message}: ${detail}` : message));

// --- Read every manifest --------------------------------------------------------------------
const files = readdirSync(dir).filter((name) => name.endsWith(".yaml") && name !== "kustomization.yaml").sort();
const resources = [];
for (const file of files) {
	for (const document of parseAllDocuments(readFileSync(join(dir, file), "utf8"))) {
		if (document.errors.length > 0) {
			fail(`${file}: YAML: ${document.errors.map((error) => error.message).join("; ")}`);
			continue;
		}
		const value = document.toJS();
		if (value != null) {
			resources.push({ file, value, name: `${file}: ${value.kind}/${value.metadata?.name}` });
		}
	}
}
expect(resources.length > 0, `${resources.length} resources in ${files.length} files`);

// --- 1. Schema ------------------------------------------------------------------------------
function modelPath({ apiVersion, kind }) {
	if (apiVersion.startsWith("monitoring.coreos.com/")) {
		return `@kubernetes-models/prometheus-operator/${apiVersion}/${kind}`;
	}
	return `kubernetes-models/${apiVersion}/${kind}`;
}
for (const resource of resources) {
	resource.model = modelPath(resource.value);
	try {
		const module = await import(resource.model);
		new module[resource.value.kind](resource.value).validate();
		pass(`${resource.name} matches the ${resource.value.apiVersion} schema`);
	}
	catch (error) {
		fail(`${resource.name}: ${error.code === "ERR_MODULE_NOT_FOUND" ? `no schema for ${resource.model}` : error.message}`);
	}
}

// --- 2. Unknown fields ----------------------------------------------------------------------
// Inside this folder, so that the models resolve from its node_modules.
const check = mkdtempSync(join(tools, ".check-"));
try {
	const lines = [];
	resources.forEach((resource, i) => {
		lines.push(`import type { I${resource.value.kind} as T${i} } from ${JSON.stringify(resource.model)};`);
		lines.push(`// ${resource.name}`);
		lines.push(`export const r${i}: T${i} = ${JSON.stringify(resource.value)};`);
	});
	writeFileSync(join(check, "manifests.ts"), lines.join("\n") + "\n");
	writeFileSync(join(check, "tsconfig.json"), JSON.stringify({
		compilerOptions: {
			strict: true, noEmit: true, module: "nodenext", moduleResolution: "nodenext", target: "es2022",
			skipLibCheck: true, types: [],
		},
		files: ["manifests.ts"],
	}));
	try {
		execFileSync(process.execPath, [join(tools, "node_modules", "typescript", "bin", "tsc"), "-p", check],
			{ cwd: tools, encoding: "utf8", stdio: "pipe" });
		pass(`no unknown or misspelt field in ${resources.length} resources (TypeScript excess-property check)`);
	}
	catch (error) {
		const source = readFileSync(join(check, "manifests.ts"), "utf8").split("\n");
		const messages = `${error.stdout}`.trim().split("\n").map((line) => {
			const at = /manifests\.ts\((\d+),\d+\)/.exec(line);
			return at ? `${source[Number(at[1]) - 2].slice(3)}: ${line.replace(/^.*error /, "")}` : line;
		});
		fail(`unknown fields:\n    ${messages.join("\n    ")}`);
	}
}
finally {
	rmSync(check, { recursive: true, force: true });
}

// --- 3. Consistency -------------------------------------------------------------------------
try {
	const of = (kind) => resources.filter((resource) => resource.value.kind === kind);
	const matches = (selector, labels) => Object.entries(selector?.matchLabels ?? {}).every(([key, value]) => labels?.[key] === value)
		&& Object.keys(selector?.matchLabels ?? {}).length > 0;
	const [deployment] = of("Deployment");
	const pod = deployment?.value.spec.template;
	const container = pod?.spec.containers[0];
	const portNames = new Set((container?.ports ?? []).map((port) => port.name));
	expect(deployment != null && of("Deployment").length === 1, "one Deployment");

	expect(matches(deployment.value.spec.selector, pod.metadata.labels), "Deployment: its selector matches its pod labels");
	for (const kind of ["Service", "PodDisruptionBudget", "PodMonitor"]) {
		for (const resource of of(kind)) {
			const selector = kind === "Service" ? { matchLabels: resource.value.spec.selector } : resource.value.spec.selector;
			expect(matches(selector, pod.metadata.labels), `${resource.name}: selects the Deployment's pods`);
		}
	}
	for (const service of of("Service")) {
		for (const port of service.value.spec.ports) {
			expect(typeof port.targetPort !== "string" || portNames.has(port.targetPort),
				`${service.name}: target port ${port.targetPort} is a container port`);
		}
	}
	for (const monitor of of("PodMonitor")) {
		for (const endpoint of monitor.value.spec.podMetricsEndpoints) {
			expect(portNames.has(endpoint.port) && endpoint.path === "/actuator/prometheus",
				`${monitor.name}: scrapes /actuator/prometheus on container port ${endpoint.port}`);
			const job = (endpoint.relabelings ?? []).find((relabeling) => relabeling.targetLabel === "job");
			expect(job?.replacement === "ariadne", `${monitor.name}: sets job="ariadne", the job of the alert rules`);
		}
	}
	for (const probe of ["startupProbe", "livenessProbe", "readinessProbe"]) {
		const get = container[probe]?.httpGet;
		expect(get != null && portNames.has(get.port) && get.port === "management" && get.path.startsWith("/actuator/health/"),
			`Deployment: ${probe} asks a health group on the management port`, JSON.stringify(get));
	}
	expect(container.readinessProbe?.httpGet?.path === "/actuator/health/readiness"
		&& container.livenessProbe?.httpGet?.path === "/actuator/health/liveness", "Deployment: probes use Boot's readiness and liveness groups");

	// Shutdown: preStop sleep + Spring's shutdown phase (which bounds Ariadne's drain) must end
	// before the termination grace period does.
	const argument = (name) => {
		const arg = (container.args ?? []).find((value) => value.startsWith(`--${name}=`));
		return arg?.slice(name.length + 3);
	};
	const seconds = (duration) => {
		const match = /^(\d+)(ms|s|m)$/.exec(duration ?? "");
		return match ? Number(match[1]) * { ms: 0.001, s: 1, m: 60 }[match[2]] : NaN;
	};
	const preStop = container.lifecycle?.preStop?.sleep?.seconds ?? 0;
	const grace = seconds(argument("ariadne.server.shutdown.grace-period") ?? "30s");
	const phase = seconds(argument("spring.lifecycle.timeout-per-shutdown-phase") ?? "30s");
	const termination = pod.spec.terminationGracePeriodSeconds ?? 30;
	expect(grace <= phase, `Deployment: grace period ${grace} s fits in the shutdown phase timeout ${phase} s`);
	expect(preStop >= 2 && preStop + phase + 2 <= termination,
		`Deployment: preStop ${preStop} s + shutdown phase ${phase} s + 2 s to exit fit in terminationGracePeriodSeconds ${termination}`);
	expect(deployment.value.spec.replicas === undefined, "Deployment: no replica count, the autoscaler owns it");
	expect(deployment.value.spec.strategy?.rollingUpdate?.maxUnavailable === 0,
		"Deployment: a rollout never takes a pod out before its replacement is ready");

	// Autoscaler and adapter rule.
	const adapter = resources.find((resource) => resource.value.kind === "ConfigMap" && resource.value.data?.["config.yaml"]);
	const rules = adapter ? parse(adapter.value.data["config.yaml"]).rules ?? [] : [];
	const served = new Set(rules.map((rule) => rule.name?.as));
	expect(rules.length > 0 && rules.every((rule) => rule.seriesQuery && rule.metricsQuery && rule.resources?.overrides?.pod?.resource === "pod"
		&& rule.resources?.overrides?.namespace?.resource === "namespace"), `${adapter?.name}: rules map the namespace and pod labels`);
	for (const hpa of of("HorizontalPodAutoscaler")) {
		const target = hpa.value.spec.scaleTargetRef;
		expect(target.kind === "Deployment" && target.name === deployment.value.metadata.name, `${hpa.name}: scales the Deployment`);
		expect(hpa.value.spec.minReplicas >= 2 && hpa.value.spec.minReplicas <= hpa.value.spec.maxReplicas,
			`${hpa.name}: ${hpa.value.spec.minReplicas} to ${hpa.value.spec.maxReplicas} replicas`);
		for (const metric of hpa.value.spec.metrics) {
			const name = metric.pods?.metric?.name;
			expect(metric.type === "Pods" && served.has(name), `${hpa.name}: custom metric ${name} is served by the adapter rule`);
		}
	}

	// Generated resources hold exactly their sources.
	const [rule] = of("PrometheusRule");
	expect(rule != null && isDeepStrictEqual(rule.value.spec, parse(readFileSync(join(root, "prometheus", "alerts.yml"), "utf8"))),
		"PrometheusRule: its spec is prometheus/alerts.yml");
	const dashboards = resources.find((resource) => resource.value.metadata?.labels?.grafana_dashboard === "1");
	const sources = readdirSync(join(root, "grafana", "dashboards")).filter((name) => name.endsWith(".json")).sort();
	expect(dashboards != null && isDeepStrictEqual(Object.keys(dashboards.value.data).sort(), sources)
		&& sources.every((name) => isDeepStrictEqual(JSON.parse(dashboards.value.data[name]),
			JSON.parse(readFileSync(join(root, "grafana", "dashboards", name), "utf8")))),
		`dashboards ConfigMap holds grafana/dashboards/*.json (${sources.join(", ")})`);
	for (const map of of("ConfigMap")) {
		const size = Buffer.byteLength(JSON.stringify(map.value));
		// kubectl apply (client side) keeps the whole object in an annotation limited to 256 KiB.
		expect(size < 256 * 1024, `${map.name}: ${Math.round(size / 1024)} KiB, under the 256 KiB client-side apply limit`);
	}

	// Labels are valid label values (the OpenAPI schema does not say).
	for (const resource of resources) {
		const labels = { ...resource.value.metadata?.labels, ...resource.value.spec?.template?.metadata?.labels };
		const bad = Object.entries(labels).filter(([key, value]) => !/^([a-z0-9.-]+\/)?[A-Za-z0-9]([-A-Za-z0-9_.]{0,61}[A-Za-z0-9])?$/.test(key)
			|| !/^(([A-Za-z0-9][-A-Za-z0-9_.]{0,61})?[A-Za-z0-9])?$/.test(String(value)));
		if (bad.length > 0) {
			fail(`${resource.name}: invalid labels ${JSON.stringify(bad)}`);
		}
	}

	// kustomization.yaml lists every resource but the adapter's.
	const kustomization = parse(readFileSync(join(dir, "kustomization.yaml"), "utf8"));
	const expected = files.filter((file) => file !== basename(adapter?.file ?? "")).sort();
	expect(kustomization.kind === "Kustomization" && isDeepStrictEqual([...kustomization.resources].sort(), expected),
		`kustomization.yaml lists ${expected.join(", ")}`, JSON.stringify(kustomization.resources));

}
catch (error) {
	fail(`consistency checks stopped: ${error.stack}`);
}

console.log(`kubernetes: ${passed} passed, ${failed} failed`);
process.exit(failed === 0 ? 0 : 1);
