#!/usr/bin/env bash
# Verifies the observability bundle (prometheus/, grafana/, load/, docker-compose.yml) without
# Docker, against a real Prometheus and the real sample application, on loopback only.
#
#   static: promtool check config / check rules / test rules; every alert has a firing and a
#           silent test; dashboards are valid JSON with unique panel ids, and every panel has a
#           datasource reference by uid and a description; docker-compose.yml resolves.
#   live:   the sample application (profile `starved`) and Prometheus scraping its management
#           port every 2 s; 20 keep-alive clients each send one GET /api/compute and hold
#           their connection. Asserts saturation 1 with connections waiting, the pool alert
#           pending, the diagnosis naming thread-per-connection (ariadne_pool_starvation; the alert
#           AriadnePoolStarved), and that EVERY panel query of EVERY dashboard returns series. Then the
#           same with io-model event-loop (threads.max 4): every client is answered and no
#           connection waits.
#
# Usage: prometheus/verify.sh [--jar PATH]   (default: sample-app/target/ariadne-sample-app.jar,
#        built with the Maven wrapper when missing)
# Installs Debian's prometheus (and jq, curl) when missing. Prints PASS/FAIL per check and
# "observability: N passed, N failed"; exits 1 on any failure. Prints "SKIPPED: ..." and exits 0
# only when the prometheus package cannot be installed. Bounded: 290 s after the tools are there
# (VERIFY_TIMEOUT_SECONDS), about 1.5 minutes in practice.
set -uo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=$(dirname "$here")
dashboards_dir="$root/grafana/dashboards"
jar="$root/sample-app/target/ariadne-sample-app.jar"
clients=20
threads=4

while [ $# -gt 0 ]; do
	case "$1" in
		--jar) jar="$2"; shift 2 ;;
		*) echo "usage: $0 [--jar PATH]" >&2; exit 2 ;;
	esac
done

# shellcheck source=../deploy/lib.sh
. "$root/deploy/lib.sh"   # pass/fail/check, apt_install, newest_java, free_port, stop_pid
out_of_time() { [ "$SECONDS" -ge "$deadline" ]; }

# ---------------------------------------------------------------------------------------------
# Tools
# ---------------------------------------------------------------------------------------------
if ! command -v promtool >/dev/null || ! command -v prometheus >/dev/null; then
	echo "Installing Debian's prometheus package (promtool and prometheus are missing)"
	if ! reason=$(apt_install prometheus) || ! command -v promtool >/dev/null || ! command -v prometheus >/dev/null; then
		echo "SKIPPED: Debian's prometheus package could not be installed: ${reason:-promtool or prometheus still missing}"
		exit 0
	fi
fi
for tool in jq curl; do
	if ! command -v "$tool" >/dev/null; then
		apt_install "$tool" >/dev/null || true
		command -v "$tool" >/dev/null || { echo "FAIL $tool is required and could not be installed"; exit 1; }
	fi
done
echo "Using $(prometheus --version 2>&1 | head -n 1)"
# The time budget counts from here: a first-time package install is not part of it.
deadline=$((SECONDS + ${VERIFY_TIMEOUT_SECONDS:-290}))

# ---------------------------------------------------------------------------------------------
# Static checks
# ---------------------------------------------------------------------------------------------
echo "== Prometheus configuration and rules"
check "promtool check config prometheus/prometheus.yml" promtool check config "$here/prometheus.yml"
check "promtool check rules prometheus/alerts.yml" promtool check rules "$here/alerts.yml"
check "promtool test rules prometheus/alerts_test.yml" bash -c 'cd "$1" && promtool test rules alerts_test.yml' _ "$here"

# For each alert of alerts.yml: a test case that expects it to fire and one that expects silence.
alert_cases() { # prints "ALERTNAME fires|silent" for each alert_rule_test of the test file
	awk '/alertname:/ { name = $2 } /exp_alerts:/ { if (name != "") { print name, ($2 == "[]") ? "stays-silent" : "fires"; name = "" } }' \
		"$here/alerts_test.yml"
}
cases=$(alert_cases)
for alert in $(awk '/- alert:/ { print $3 }' "$here/alerts.yml"); do
	for kind in fires stays-silent; do
		if grep -qx "$alert $kind" <<<"$cases"; then pass "alert $alert has a test case where it $kind"; else
			fail "alert $alert has no test case where it $kind"; fi
	done
done

echo "== Grafana provisioning and dashboards"
datasource_uid=$(sed -n 's/^ *uid: *//p' "$root/grafana/provisioning/datasources/prometheus.yml" | head -n 1)
if [ "$datasource_uid" = prometheus ]; then pass "datasource provisioned with uid prometheus"; else
	fail "datasource uid is '$datasource_uid', expected prometheus"; fi
dashboard_files=("$dashboards_dir"/*.json)
if [ -e "${dashboard_files[0]}" ]; then pass "${#dashboard_files[@]} dashboards found"; else fail "no dashboards in grafana/dashboards"; fi

# jq program listing what is wrong with one dashboard; prints nothing when it is fine.
read -r -d '' dashboard_lint <<'JQ'
def panels: [.panels[]? | ., (.panels[]?)];
(panels | map(.id) | group_by(.) | map(select(length > 1) | "duplicate panel id \(.[0])") | .[]),
(panels[] | select(.id == null) | "panel '\(.title)' has no id"),
(panels[] | select(.type == "row") | select((.title // "") == "") | "row \(.id) has no title"),
(panels[] | select(.type != "row") | . as $p |
	(select(($p.datasource.uid // "") != $uid) | "panel \($p.id) '\($p.title)': datasource uid is not \($uid)"),
	(select(($p.description // "") == "") | "panel \($p.id) '\($p.title)': no description"),
	(select(($p.targets // []) | length == 0) | "panel \($p.id) '\($p.title)': no query"),
	($p.targets[]? | select((.datasource.uid // $uid) != $uid or (.expr // "") == "")
		| "panel \($p.id) '\($p.title)' query \(.refId): no expression or another datasource")),
(.templating.list[]? | select(.type == "query" and (.datasource.uid // "") != $uid)
	| "variable \(.name): datasource uid is not \($uid)"),
(["instance", "listener", "pool"] - [.templating.list[]?.name] | .[] | "missing variable $\(.)"),
(select((.uid // "") == "") | "dashboard has no uid")
JQ
for file in "${dashboard_files[@]}"; do
	[ -e "$file" ] || continue
	name=${file#"$root"/}
	if ! jq empty "$file" 2>/dev/null; then fail "$name is not valid JSON"; continue; fi
	pass "$name is valid JSON"
	problems=$(jq -r --arg uid "$datasource_uid" "$dashboard_lint" "$file")
	if [ -z "$problems" ]; then
		pass "$name: $(jq '[.panels[]? | ., (.panels[]?)] | length' "$file") panels, unique ids, each with datasource uid and description"
	else
		fail "$name:"; printf '%s\n' "$problems" | sed 's/^/    /'
	fi
done
uids=$(for file in "${dashboard_files[@]}"; do jq -r .uid "$file"; done | sort)
if [ "$(uniq <<<"$uids")" = "$uids" ]; then pass "dashboard uids are unique"; else fail "two dashboards share a uid"; fi
home=$(sed -n 's/.*GF_DASHBOARDS_DEFAULT_HOME_DASHBOARD_PATH: *//p' "$root/docker-compose.yml")
if [ -n "$home" ] && [ -f "$dashboards_dir/$(basename "$home")" ]; then pass "home dashboard $(basename "$home") exists"; else
	fail "home dashboard '$home' of docker-compose.yml is not in grafana/dashboards"; fi

echo "== Load script and docker-compose.yml"
if command -v node >/dev/null; then
	scratch=$(mktemp -d)
	cp "$root/load/seed.js" "$scratch/seed.mjs"
	check "load/seed.js parses as an ES module (node --check)" node --check "$scratch/seed.mjs"
	rm -rf "$scratch"
else
	echo "NOTE node not found: load/seed.js syntax not checked"
fi
compose=()
if docker compose version >/dev/null 2>&1; then compose=(docker compose); elif command -v docker-compose >/dev/null; then
	compose=(docker-compose); else
	apt_install docker-compose >/dev/null 2>&1 && command -v docker-compose >/dev/null && compose=(docker-compose)
fi
if [ ${#compose[@]} -gt 0 ]; then
	check "${compose[*]} config" "${compose[@]}" --project-directory "$root" -f "$root/docker-compose.yml" config -q
	for profile in starved tuned event-loop virtual; do
		check "ARIADNE_PROFILE=$profile selects Spring profile $profile" bash -c \
			'ARIADNE_PROFILE=$1 "${@:3}" -f "$2" config | grep -q "SPRING_PROFILES_ACTIVE: $1\$"' _ "$profile" "$root/docker-compose.yml" "${compose[@]}"
	done
	check "k6 runs only under the compose profile 'load'" bash -c \
		'"${@:2}" -f "$1" config | awk "/^  k6:/ { k6 = 1; next } /^  [^ ]/ { k6 = 0 } k6" | grep -q -- "- load"' \
		_ "$root/docker-compose.yml" "${compose[@]}"
else
	echo "NOTE neither 'docker compose' nor 'docker-compose' is available: docker-compose.yml not validated"
fi

# ---------------------------------------------------------------------------------------------
# Live checks: the sample application and Prometheus on loopback
# ---------------------------------------------------------------------------------------------
work=$(mktemp -d)
app_pid=""
prom_pid=""
fds=()

close_clients() {
	local fd
	for fd in "${fds[@]}"; do exec {fd}>&-; done
	fds=()
}
cleanup() {
	close_clients
	stop_pid "$app_pid"
	stop_pid "$prom_pid"
	if [ "$failed" -gt 0 ] || [ -n "${VERIFY_KEEP:-}" ]; then
		for log in "$work"/*.log; do
			[ -f "$log" ] && { echo "---- last lines of $(basename "$log")"; tail -n 15 "$log"; }
		done
	fi
	rm -rf "$work"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

java=$(newest_java)
[ -n "$java" ] || { fail "no java found"; exit 1; }

if [ ! -f "$jar" ]; then
	echo "Building the sample application ($jar is missing)"
	(cd "$root" && JAVA_HOME=$(dirname "$(dirname "$(readlink -f "$java")")") \
		timeout 240 ./mvnw -q -B -ntp -pl sample-app -am package -Dmaven.test.skip=true) || { fail "sample application build"; exit 1; }
fi
echo "Using $jar with $("$java" -version 2>&1 | head -n 1)"

start_app() { # start_app NAME ARGS...: starts the jar on free loopback ports; sets app_port, mgmt_port
	local name=$1 i
	shift
	free_port; app_port=$REPLY
	free_port; mgmt_port=$REPLY
	# The held clients send nothing after their first request, so keep-alive.timeout is raised
	# above the script's length: otherwise the server would close them after 20 s idle and, in
	# the blocking model, hand the freed workers to the next four (clients of the seed's load
	# never idle that long).
	"$java" -Xmx512m -jar "$jar" --ariadne.server.address=127.0.0.1 --ariadne.server.port="$app_port" \
		--management.server.address=127.0.0.1 --management.server.port="$mgmt_port" \
		--ariadne.server.keep-alive.timeout=10m "$@" >"$work/app-$name.log" 2>&1 &
	app_pid=$!
	for i in $(seq 120); do
		if curl -sf -m 2 "http://127.0.0.1:$mgmt_port/actuator/prometheus" 2>/dev/null | grep -q '^ariadne_server_info'; then
			pass "$name: sample application serves /actuator/prometheus on management port $mgmt_port (app port $app_port)"
			return 0
		fi
		kill -0 "$app_pid" 2>/dev/null || break
		out_of_time && break
		sleep 0.5
	done
	fail "$name: sample application did not serve /actuator/prometheus on 127.0.0.1:$mgmt_port"
	return 1
}

write_prometheus_config() { # the project's scrape config, pointed at the app, scraping every 2 s
	sed -e "s/sample-app:8081/127.0.0.1:$mgmt_port/" -e 's/scrape_interval: 5s/scrape_interval: 2s/' \
		-e 's/scrape_timeout: 4s/scrape_timeout: 2s/' -e 's/evaluation_interval: 5s/evaluation_interval: 1s/' \
		"$here/prometheus.yml" >"$work/prometheus.yml"
	cp "$here/alerts.yml" "$work/alerts.yml"
	grep -q "127.0.0.1:$mgmt_port" "$work/prometheus.yml" && grep -q 'scrape_interval: 2s' "$work/prometheus.yml" \
		&& promtool check config "$work/prometheus.yml" >/dev/null 2>&1
}

prom() { # prom PROMQL: the /api/v1/query response
	curl -sf -m 5 --get --data-urlencode "query=$1" "http://127.0.0.1:$prom_port/api/v1/query"
}
value() { # value PROMQL: the first sample's value, or "none"
	prom "$1" | jq -r 'if .status == "success" and (.data.result | length) > 0 then .data.result[0].value[1] else "none" end' 2>/dev/null \
		|| echo none
}
latest() { # latest SELECTOR: its newest sample of the last 10 s (a scrape that timed out on a
	# loaded machine marks every series stale, and an instant query would find nothing)
	value "last_over_time($1[10s])"
}
wait_for() { # wait_for PROMQL SECONDS: until the query returns a series
	local until=$((SECONDS + $2))
	while [ "$SECONDS" -lt "$until" ] && ! out_of_time; do
		[ "$(value "$1")" != none ] && return 0
		sleep 0.5
	done
	return 1
}

open_clients() { # open_clients PATH: $clients connections, each sends one request and stays open
	local i fd
	for i in $(seq "$clients"); do
		exec {fd}<>"/dev/tcp/127.0.0.1/$app_port" || return 1
		printf 'GET %s HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n' "$1" >&"$fd"
		fds+=("$fd")
	done
}
answered=0
declare -A got_answer
count_answers() { # count_answers SECONDS [COUNT]: reads status lines until COUNT (default all) are answered or time is up
	local until=$((SECONDS + $1)) want=${2:-${#fds[@]}} fd line
	while :; do
		for fd in "${fds[@]}"; do
			[ -n "${got_answer[$fd]:-}" ] && continue
			# Peek first (-t 0 consumes nothing), then read the whole status line: a read that
			# times out half-way would swallow the part it read.
			read -r -t 0 -u "$fd" || continue
			if read -r -t 10 -u "$fd" line && [[ $line == HTTP/1.1\ * ]]; then got_answer[$fd]=$line; else got_answer[$fd]="no status line"; fi
		done
		sleep 0.1
		answered=0
		for fd in "${!got_answer[@]}"; do [[ ${got_answer[$fd]} == HTTP/1.1\ * ]] && answered=$((answered + 1)); done
		[ "${#got_answer[@]}" -ge "$want" ] && return 0
		[ "$SECONDS" -ge "$until" ] && return 0
		out_of_time && return 0
	done
}

panel_queries() { # for every panel query of every dashboard: dashboard, panel id, title, refId, expr (base64)
	jq -r '.title as $d | [.panels[]? | ., (.panels[]?)][] | select(.type != "row") | . as $p
		| .targets[]? | [$d, ($p.id | tostring), $p.title, .refId, (.expr | @base64)] | @tsv' "${dashboard_files[@]}"
}
substitute() { # substitute EXPR: Grafana variables → the values of this run
	local e=$1 name val
	e=${e//'${__rate_interval}'/30s}; e=${e//'$__rate_interval'/30s}
	e=${e//'${__interval}'/5s}; e=${e//'$__interval'/5s}
	e=${e//'${__range}'/5m}; e=${e//'$__range'/5m}
	for name in instance listener pool; do
		case $name in instance) val=$instance ;; listener) val=app ;; pool) val=default ;; esac
		e=${e//"\${$name}"/$val}; e=${e//"\$$name"/$val}
	done
	printf '%s' "$e"
}
evaluate_dashboards() { # evaluate_dashboards RUN: every panel query must return at least one series
	local run=$1 dashboard id title ref encoded expr response series attempt empty=0 total=0
	while IFS=$'\t' read -r dashboard id title ref encoded; do
		total=$((total + 1))
		expr=$(substitute "$(printf '%s' "$encoded" | base64 -d)")
		if [[ $expr == *'$'* ]]; then fail "$run: $dashboard #$id '$title' ($ref) has an unknown variable: $expr"; continue; fi
		for attempt in 1 2 3; do # a scrape that timed out leaves gauges stale for one interval
			response=$(prom "$expr")
			series=$(jq -r 'if .status == "success" then (.data.result | length) else "error" end' <<<"$response" 2>/dev/null || echo error)
			[ "$series" != error ] && [ "$series" -gt 0 ] && break
			sleep 1
		done
		if [ "$series" = error ]; then fail "$run: $dashboard #$id '$title' ($ref) query error: $expr"; empty=$((empty + 1))
		elif [ "$series" -eq 0 ]; then fail "$run: $dashboard #$id '$title' ($ref) returned no series: $expr"; empty=$((empty + 1))
		else pass "$run: $dashboard #$id '$title' ($ref): $series series"; fi
	done < <(panel_queries)
	echo "   $run: $((total - empty)) of $total panel queries returned series"
	# Dashboard variables: label_values(SELECTOR, LABEL) must offer this run's value.
	local name definition selector label values expected
	while IFS=$'\t' read -r name definition; do
		[[ $definition =~ ^label_values\((.*),[[:space:]]*([A-Za-z_]+)\)$ ]] || { fail "$run: variable $name: unsupported query $definition"; continue; }
		selector=$(substitute "${BASH_REMATCH[1]}"); label=${BASH_REMATCH[2]}
		values=$(curl -sf -m 5 --get --data-urlencode "match[]=$selector" "http://127.0.0.1:$prom_port/api/v1/label/$label/values" | jq -r '.data[]?')
		case $name in instance) expected=$instance ;; listener) expected=app ;; pool) expected=default ;; *) expected="" ;; esac
		if grep -qx -- "$expected" <<<"$values"; then pass "$run: variable \$$name offers '$expected' ($(tr '\n' ' ' <<<"$values"))"; else
			fail "$run: variable \$$name does not offer '$expected' (got: $(tr '\n' ' ' <<<"$values"))"; fi
	done < <(jq -r '.templating.list[]? | select(.type == "query") | [.name, (.definition // .query)] | @tsv' "${dashboard_files[0]}")
}

sel() { printf '{instance="%s",listener="app",pool="default"}' "$instance"; }
figures=()

echo "== Live, blocking model: profile starved, $clients keep-alive clients"
free_port; prom_port=$REPLY
if start_app starved --spring.profiles.active=starved; then
	instance="127.0.0.1:$mgmt_port"
	if write_prometheus_config; then pass "scrape config derived from prometheus/prometheus.yml (target $instance, every 2 s)"; else
		fail "could not derive a test config from prometheus/prometheus.yml"; exit 1; fi
	prometheus --config.file="$work/prometheus.yml" --storage.tsdb.path="$work/data" \
		--web.listen-address="127.0.0.1:$prom_port" >"$work/prometheus.log" 2>&1 &
	prom_pid=$!
	if wait_for "up{instance=\"$instance\"} == 1" 40; then pass "Prometheus on 127.0.0.1:$prom_port scrapes the sample application"; else
		fail "Prometheus did not scrape $instance"; exit 1; fi
	wait_for "ariadne_pool_threads_max$(sel)" 20 || true
	if open_clients /api/compute; then pass "$clients clients connected, one GET /api/compute each, connections held"; else
		fail "could not open $clients connections"; fi
	if wait_for "ariadne_pool_saturation$(sel) == 1 and on (instance, listener, pool) ariadne_pool_queue_size$(sel) > 0" 40; then
		pass "starved: ariadne_pool_saturation{listener=\"app\"} reached 1 with ariadne_pool_queue_size > 0"
	else
		fail "starved: saturation did not reach 1 with connections waiting"
	fi
	max=$(latest "ariadne_pool_threads_max$(sel)")
	count_answers 20 "$max"  # the clients that got a worker
	count_answers 2          # and, to be sure, nobody else
	busy=$(latest "ariadne_pool_threads_busy$(sel)")
	queued=$(latest "ariadne_pool_queue_size$(sel)"); saturation=$(latest "ariadne_pool_saturation$(sel)")
	if [ "$answered" = "$max" ] && [ "$queued" = $((clients - answered)) ]; then
		pass "starved: $answered of $clients clients answered (threads.max $max), $queued connections waiting for a worker"
	else
		fail "starved: expected threads.max ($max) clients answered and the rest waiting, got $answered answered, $queued waiting"
	fi
	if [ "$(value "max_over_time(up{instance=\"$instance\"}[6s])")" = 1 ]; then pass "starved: the management listener is still scraped while the app pool is starved"; else
		fail "starved: Prometheus cannot scrape the management listener while the app pool is starved"; fi
	if wait_for "ALERTS{alertname=\"AriadnePoolSaturated\",instance=\"$instance\",listener=\"app\"}" 20; then
		pass "starved: alert AriadnePoolSaturated is $(prom "ALERTS{alertname=\"AriadnePoolSaturated\",instance=\"$instance\",listener=\"app\"}" \
			| jq -r '.data.result[0].metric.alertstate')"
	else
		fail "starved: alert AriadnePoolSaturated is neither pending nor firing"
	fi
	# per pool, whatever the cause: pending once the pool has been starved for half of 2 minutes
	starved_alert="ALERTS{alertname=\"AriadnePoolStarved\",instance=\"$instance\",listener=\"app\",pool=\"default\"}"
	if wait_for "ariadne_pool_starvation$(sel | sed 's/}$/,cause="thread-per-connection"}/') == 1" 20 && wait_for "$starved_alert" 90; then
		pass "starved: the diagnosis names thread-per-connection (ariadne_pool_starvation 1) and AriadnePoolStarved is $(prom "$starved_alert" \
			| jq -r '.data.result[0].metric.alertstate')"
	else
		fail "starved: ariadne_pool_starvation{cause=\"thread-per-connection\"} is not 1, or AriadnePoolStarved is neither pending nor firing"
	fi
	# Let the rate() windows of the panels see a few scrapes after the requests.
	wait_for "count_over_time(ariadne_requests_seconds_count{instance=\"$instance\",listener=\"app\"}[30s]) >= 3" 20 || true
	evaluate_dashboards starved
	app_labels="{instance=\"$instance\",listener=\"app\"}"
	figures+=("starved (blocking, threads.max $max): clients answered $answered/$clients, busy $busy, saturation $saturation, waiting for a worker $queued, active $(latest "ariadne_connections_active$app_labels"), idle $(latest "ariadne_connections_idle$app_labels"), accepted $(latest "ariadne_connections_accepted_total$app_labels"), accept-queue depth $(latest "ariadne_accept_queue_depth$app_labels") of capacity $(latest "ariadne_accept_queue_capacity$app_labels"), live JVM threads $(latest "jvm_threads_live_threads{instance=\"$instance\"}")")
	close_clients
	got_answer=()
	stop_pid "$app_pid"; app_pid=""
fi

echo "== Live, event-loop model: threads.max $threads, the same $clients clients"
if ! out_of_time && [ -n "$prom_pid" ] && start_app event-loop --ariadne.server.io-model=event-loop --ariadne.server.threads.max="$threads"; then
	instance="127.0.0.1:$mgmt_port"
	if write_prometheus_config && kill -HUP "$prom_pid" && wait_for "up{instance=\"$instance\"} == 1" 30; then
		pass "Prometheus reloaded and scrapes $instance"
	else
		fail "Prometheus did not scrape the event-loop application at $instance"
	fi
	wait_for "ariadne_pool_threads_max$(sel)" 20 || true
	io_model=$(prom "ariadne_server_info{instance=\"$instance\",listener=\"app\"}" | jq -r '.data.result[0].metric.io_model // "none"')
	if [ "$io_model" = event-loop ]; then pass "event-loop: ariadne_server_info reports io_model event-loop"; else
		fail "event-loop: ariadne_server_info reports io_model '$io_model'"; fi
	open_clients /api/compute || fail "could not open $clients connections"
	count_answers 30
	if [ "$answered" -eq "$clients" ]; then pass "event-loop: all $clients clients answered with threads.max $threads"; else
		fail "event-loop: only $answered of $clients clients answered"; fi
	app_labels="{instance=\"$instance\",listener=\"app\"}"
	if wait_for "ariadne_connections_idle$app_labels >= $clients" 20 \
		&& wait_for "count_over_time(ariadne_pool_queue_size$(sel)[5s]) >= 2" 20; then
		queued=$(latest "ariadne_pool_queue_size$(sel)"); saturation=$(latest "ariadne_pool_saturation$(sel)")
		if [ "$queued" = 0 ]; then pass "event-loop: no connection waits (queue size 0, saturation $saturation) with $clients connections open"; else
			fail "event-loop: $queued waiting for a worker with $clients connections open"; fi
	else
		fail "event-loop: Prometheus never saw the $clients connections open and idle"
	fi
	wait_for "count_over_time(ariadne_requests_seconds_count$app_labels[30s]) >= 3" 20 || true
	evaluate_dashboards event-loop
	figures+=("event-loop (threads.max $threads): clients answered $answered/$clients, busy $(latest "ariadne_pool_threads_busy$(sel)"), saturation $(latest "ariadne_pool_saturation$(sel)"), waiting for a worker $(latest "ariadne_pool_queue_size$(sel)") (most seen while the app ran: $(value "max_over_time(ariadne_pool_queue_size$(sel)[5m])")), active $(latest "ariadne_connections_active$app_labels"), idle $(latest "ariadne_connections_idle$app_labels"), accept-queue depth $(latest "ariadne_accept_queue_depth$app_labels") of capacity $(latest "ariadne_accept_queue_capacity$app_labels"), live JVM threads $(latest "jvm_threads_live_threads{instance=\"$instance\"}")")
	close_clients
elif out_of_time; then
	fail "out of time before the event-loop run"
fi

echo "== Figures"
for line in "${figures[@]}"; do echo "   $line"; done
echo "observability: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
