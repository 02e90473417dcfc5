#!/usr/bin/env bash
# Validates deploy/kubernetes offline (no cluster): the generated resources are up to date with
# prometheus/alerts.yml and grafana/dashboards/*.json (generate.sh --check), and every manifest
# passes tools/validate.mjs: the Kubernetes 1.36 and Prometheus Operator schemas, a check for
# unknown fields, and consistency (selectors, ports, the autoscaler's metric, the shutdown
# timings). Run by ./mvnw verify (sample-app, integration-test phase).
#
# Usage: deploy/kubernetes/verify.sh
# Installs the pinned npm packages of tools/package.json into tools/node_modules (git-ignored)
# with npm ci, and Debian's nodejs and npm when node is missing. Prints "SKIPPED: ..." and exits 0
# only when node or the npm packages cannot be installed. About 10 s once installed.
set -uo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=$(cd "$here/../.." && pwd)
# shellcheck source=../lib.sh
. "$root/deploy/lib.sh"

if ! command -v node >/dev/null || ! command -v npm >/dev/null; then
	echo "Installing Debian's nodejs and npm (node or npm is missing)"
	if ! reason=$(apt_install nodejs npm) || ! command -v node >/dev/null; then
		echo "SKIPPED: node could not be installed: ${reason:-node still missing}"
		exit 0
	fi
fi
tools="$here/tools"
# npm ci again only when the lock file changed since the last install.
if [ ! -f "$tools/node_modules/.package-lock.json" ] || [ "$tools/package-lock.json" -nt "$tools/node_modules/.package-lock.json" ]; then
	echo "Installing the validation packages (npm ci in deploy/kubernetes/tools)"
	if ! output=$(cd "$tools" && timeout 300 npm ci --no-audit --no-fund --loglevel=error 2>&1); then
		echo "SKIPPED: the npm packages could not be installed: $(tail -n 3 <<<"$output")"
		exit 0
	fi
fi
echo "Using node $(node --version), kubernetes-models $(jq -r .version "$tools/node_modules/kubernetes-models/package.json"), @kubernetes-models/prometheus-operator $(jq -r .version "$tools/node_modules/@kubernetes-models/prometheus-operator/package.json")"

echo "== Generated resources"
check "prometheus-rule.yaml and grafana-dashboards.yaml are up to date (deploy/kubernetes/generate.sh --check)" \
	"$here/generate.sh" --check
echo "== Manifests"
node "$tools/validate.mjs"
validated=$?
echo "kubernetes verification: generated files $([ "$failed" -eq 0 ] && echo fresh || echo STALE), manifests $([ "$validated" -eq 0 ] && echo valid || echo INVALID)"
[ "$failed" -eq 0 ] && [ "$validated" -eq 0 ]
