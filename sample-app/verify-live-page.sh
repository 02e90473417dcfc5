#!/usr/bin/env bash
# Verifies the live diagnosis page (/actuator/ariadne/live) in a real browser: headless
# Chromium loads it from the packaged sample application while the application is starved,
# and the rendered page must show the verdict, the cause, the advice and the charts; then,
# with the cause removed, the page must show ok.
#
#   1. starts the sample application (profile starved) on free loopback ports, with its
#      management listener;
#   2. opens 20 keep-alive clients (one GET /api/compute each, connections held) and waits
#      until /actuator/ariadne/diagnosis names thread-per-connection;
#   3. renders the page in headless Chromium (--dump-dom, JavaScript run on virtual time) and
#      checks the DOM: overall badge starved, the app's default pool starved for
#      thread-per-connection with its evidence, the advice ariadne.server.io-model, four charts per
#      listener drawn from at least 5 samples; takes a screenshot;
#   4. closes the clients, waits for ok, renders again and checks the badge says ok and the
#      card still names the past starvation's cause, and that no WebSocket chart is drawn yet;
#   5. opens 4 WebSocket sessions on /ws/echo and one plain request, waits until the diagnosis
#      names websocket-sessions, renders again and checks the card, its advice and the
#      WebSocket sessions chart (4 open, 4 busy workers).
#
# Usage: sample-app/verify-live-page.sh [--jar PATH] [--screenshot PATH] [--history SECONDS]
#        (defaults: sample-app/target/ariadne-sample-app.jar, sample-app/target/live-page.png, 5 s
#        of starved history before the page is rendered; docs/live-page.png was taken with
#        --screenshot docs/live-page.png --history 60)
# Installs Debian's chromium (and jq, curl) when missing; prints "SKIPPED: ..." and exits 0
# only when chromium cannot be installed. Prints PASS/FAIL per check, exits 1 on any failure.
# Every process it starts is stopped by its PID. About 40 s once the tools are there.
set -uo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
jar="$here/target/ariadne-sample-app.jar"
screenshot="$here/target/live-page.png"
clients=20
history=5

while [ $# -gt 0 ]; do
	case "$1" in
		--jar) jar="$2"; shift 2 ;;
		--screenshot) screenshot="$2"; shift 2 ;;
		--history) history="$2"; shift 2 ;;
		*) echo "usage: $0 [--jar PATH] [--screenshot PATH] [--history SECONDS]" >&2; exit 2 ;;
	esac
done

passed=0
failed=0
pass() { passed=$((passed + 1)); echo "PASS $*"; }
fail() { failed=$((failed + 1)); echo "FAIL $*"; }

apt_install() {
	local sudo=""
	if [ "$(id -u)" -ne 0 ]; then
		if command -v sudo >/dev/null && sudo -n true 2>/dev/null; then sudo="sudo -n"; else
			echo "not root and no password-less sudo"; return 1; fi
	fi
	command -v apt-get >/dev/null || { echo "apt-get not found"; return 1; }
	export DEBIAN_FRONTEND=noninteractive
	timeout 300 $sudo apt-get install -y -qq --no-install-recommends "$@" >/dev/null 2>&1 && return 0
	timeout 120 $sudo apt-get update -qq >/dev/null 2>&1
	timeout 300 $sudo apt-get install -y -qq --no-install-recommends "$@" 2>&1 | tail -n 3
	return "${PIPESTATUS[0]}"
}

find_browser() {
	local name
	for name in chromium chromium-browser chromium-headless-shell google-chrome; do
		command -v "$name" >/dev/null && { command -v "$name"; return 0; }
	done
	return 1
}

if ! browser=$(find_browser); then
	echo "Installing Debian's chromium (no browser found)"
	if ! reason=$(apt_install chromium) || ! browser=$(find_browser); then
		echo "SKIPPED: Debian's chromium could not be installed: ${reason:-no chromium binary after the install}"
		exit 0
	fi
fi
for tool in jq curl; do
	if ! command -v "$tool" >/dev/null; then
		apt_install "$tool" >/dev/null || true
		command -v "$tool" >/dev/null || { echo "FAIL $tool is required and could not be installed"; exit 1; }
	fi
done
echo "Using $("$browser" --version 2>/dev/null | head -n 1)"

java="${JAVA_HOME:+$JAVA_HOME/bin/java}"
[ -x "${java:-}" ] || java=$(command -v java)
[ -f "$jar" ] || { echo "FAIL the sample application jar is missing: $jar (run ./mvnw -pl sample-app -am package)"; exit 1; }

work=$(mktemp -d)
app_pid=""
fds=()
cleanup() {
	local fd
	for fd in "${fds[@]}"; do exec {fd}>&- 2>/dev/null; done
	if [ -n "$app_pid" ] && kill -0 "$app_pid" 2>/dev/null; then
		kill "$app_pid" 2>/dev/null
		for _ in $(seq 50); do kill -0 "$app_pid" 2>/dev/null || break; sleep 0.2; done
		kill -9 "$app_pid" 2>/dev/null
	fi
	if [ "$failed" -gt 0 ] && [ -f "$work/app.log" ]; then echo "---- last lines of the application's log"; tail -n 20 "$work/app.log"; fi
	rm -rf "$work"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

free_port() { # a port nobody listens on, below the ephemeral range
	local port
	while :; do
		port=$((20000 + RANDOM % 12000))
		(exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null || { echo "$port"; return; }
	done
}
app_port=$(free_port)
mgmt_port=$(free_port)
while [ "$mgmt_port" = "$app_port" ]; do mgmt_port=$(free_port); done
base="http://127.0.0.1:$mgmt_port/actuator/ariadne"

"$java" -Xmx256m -jar "$jar" --spring.profiles.active=starved --ariadne.server.address=127.0.0.1 \
	--ariadne.server.port="$app_port" --management.server.address=127.0.0.1 --management.server.port="$mgmt_port" \
	--ariadne.server.keep-alive.timeout=10m >"$work/app.log" 2>&1 &
app_pid=$!
started=0
for _ in $(seq 120); do
	curl -sf -m 2 "$base/diagnosis" >/dev/null 2>&1 && { started=1; break; }
	kill -0 "$app_pid" 2>/dev/null || break
	sleep 0.5
done
if [ "$started" = 1 ]; then pass "sample application (starved) serves $base/diagnosis"; else
	fail "sample application did not serve $base/diagnosis"; exit 1; fi
if grep -q "live diagnosis on http://127.0.0.1:$mgmt_port/actuator/ariadne/live" "$work/app.log"; then
	pass "the startup line points to the live page"; else fail "the startup line does not point to the live page"; fi

pool_field() { # pool_field FIELD: the app's default pool's field in the diagnosis, or "none"
	curl -sf -m 5 "$base/diagnosis" | jq -r --arg f "$1" \
		'[.pools[] | select(.listener == "app" and .pool == "default")][0][$f] // "none"' 2>/dev/null || echo none
}
wait_pool() { # wait_pool FIELD VALUE SECONDS
	local until=$((SECONDS + $3))
	while [ "$SECONDS" -lt "$until" ]; do
		[ "$(pool_field "$1")" = "$2" ] && return 0
		sleep 0.5
	done
	return 1
}
render() { # render NAME [SCREENSHOT]: the page's DOM after its JavaScript ran, in $work/NAME.html
	local shot=()
	[ $# -gt 1 ] && shot=(--screenshot="$2" --window-size=1400,1250 --hide-scrollbars)
	timeout 90 "$browser" --headless --no-sandbox --disable-gpu --disable-dev-shm-usage --no-first-run \
		--virtual-time-budget=10000 "${shot[@]}" --dump-dom "$base/live" >"$work/$1.html" 2>"$work/$1.err"
}
has() { grep -q -- "$2" "$work/$1.html"; }

for i in $(seq "$clients"); do
	exec {fd}<>"/dev/tcp/127.0.0.1/$app_port" || { fail "could not open client $i"; break; }
	printf 'GET /api/compute HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n' >&"$fd"
	fds+=("$fd")
done
if wait_pool cause thread-per-connection 15; then pass "$clients keep-alive clients: the diagnosis names thread-per-connection"; else
	fail "the diagnosis did not name thread-per-connection (cause: $(pool_field cause))"; fi
# more samples, so that the charts have lines to draw
sleep "$history"

if render starved "$screenshot"; then pass "headless Chromium rendered $base/live"; else
	fail "headless Chromium failed on $base/live: $(tail -n 3 "$work/starved.err")"; fi
if has starved 'id="overall" class="badge starved" data-status="starved"'; then pass "page: overall badge starved"; else
	fail "page: overall badge is not starved"; fi
if has starved 'data-listener="app" data-pool="default" data-status="starved" data-cause="thread-per-connection"'; then
	pass "page: the app's default pool is starved for thread-per-connection"; else fail "page: no starved thread-per-connection card for the app's default pool"; fi
if has starved '4 of 4 workers each own a connection until it closes'; then pass "page: the evidence is shown"; else
	fail "page: the evidence is missing"; fi
if has starved '<td class="property">ariadne.server.io-model</td><td class="value">event-loop</td>'; then
	pass "page: the advice ariadne.server.io-model = event-loop is shown"; else fail "page: the io-model advice is missing"; fi
for chart in saturation waiting accept-queue connections; do
	points=$(grep -o "data-chart=\"$chart\" data-points=\"[0-9]*\"" "$work/starved.html" | head -n 1 | grep -o '[0-9]*"$' | tr -d '"')
	if [ "${points:-0}" -ge 5 ]; then pass "page: chart $chart drawn from $points samples"; else
		fail "page: chart $chart has ${points:-no} samples"; fi
done
if [ "$(grep -o '<polyline points="[0-9]' "$work/starved.html" | wc -l)" -ge 4 ]; then pass "page: the charts have lines"; else
	fail "page: the charts have no lines"; fi
if [ -s "$screenshot" ]; then pass "screenshot written to $screenshot"; else fail "no screenshot at $screenshot"; fi
if grep -Eq '(src|href)="(https?:)?//' "$work/starved.html"; then fail "page: loads something from elsewhere"; else
	pass "page: nothing loaded from outside the jar"; fi

for fd in "${fds[@]}"; do exec {fd}>&-; done
fds=()
if wait_pool status ok 15; then pass "clients closed: the diagnosis says ok"; else fail "the diagnosis did not return to ok"; fi
if render ok && has ok 'id="overall" class="badge ok" data-status="ok"'; then pass "page: overall badge ok after the clients closed"; else
	fail "page: the badge does not say ok after the clients closed"; fi
if has ok 'class="last" data-cause="thread-per-connection"'; then pass "page: the past starvation's cause is kept after recovery"; else
	fail "page: no 'Last starved: thread-per-connection' after recovery"; fi
if has ok 'data-chart="websocket-sessions"'; then fail "page: a WebSocket sessions chart without any session"; else
	pass "page: no WebSocket sessions chart while the listener has had none"; fi

# the same story with WebSocket sessions: each owns its worker while open, quiet or not
for i in 1 2 3 4; do
	exec {fd}<>"/dev/tcp/127.0.0.1/$app_port" || { fail "could not open session $i"; break; }
	printf 'GET /ws/echo HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n' >&"$fd"
	fds+=("$fd")
done
exec {fd}<>"/dev/tcp/127.0.0.1/$app_port" && printf 'GET /ping HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n' >&"$fd" && fds+=("$fd")
if wait_pool cause websocket-sessions 15; then pass "4 WebSocket sessions: the diagnosis names websocket-sessions"; else
	fail "the diagnosis did not name websocket-sessions (cause: $(pool_field cause))"; fi
if render websocket && has websocket 'data-listener="app" data-pool="default" data-status="starved" data-cause="websocket-sessions"'; then
	pass "page: the app's default pool is starved for websocket-sessions"; else fail "page: no websocket-sessions card"; fi
if has websocket '4 of 4 workers held by 4 WebSocket sessions' \
	&& has websocket '<td class="property">ariadne.server.websocket.max-sessions</td><td class="value">3</td>'; then
	pass "page: the sessions' evidence and the max-sessions advice are shown"; else fail "page: the sessions' evidence or advice is missing"; fi
# the chart's own legend: what follows its svg up to the next chart
if grep -qP 'data-chart="websocket-sessions"(?:(?!data-chart=).)*>open: 4<(?:(?!data-chart=).)*>busy workers \(default\): 4<' \
	"$work/websocket.html"; then
	pass "page: the WebSocket sessions chart shows 4 open beside 4 busy workers"; else fail "page: no WebSocket sessions chart with 4 open and 4 busy"; fi
for fd in "${fds[@]}"; do exec {fd}>&-; done
fds=()

echo "live page: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
