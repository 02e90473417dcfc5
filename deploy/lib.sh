# Helpers shared by the verification scripts (prometheus/verify.sh, deploy/*/verify.sh); sourced:
#   pass/fail/check   count and print PASS/FAIL lines
#   apt_install PKG   installs Debian packages (as root, or with password-less sudo)
#   newest_java       $JAVA_HOME/bin/java, else the newest JDK under /usr/lib/jvm, else java
#   free_port         sets REPLY to a TCP port nobody listens on, never the same one twice
#   stop_pid PID      TERM, up to 10 s (or $2 seconds), then KILL; only processes the caller started

passed=0
failed=0
pass() { passed=$((passed + 1)); echo "PASS $*"; }
fail() { failed=$((failed + 1)); echo "FAIL $*"; }
check() { # check DESCRIPTION COMMAND...: runs the command, PASS when it succeeds
	local description=$1 output
	shift
	if output=$("$@" 2>&1); then pass "$description"; else fail "$description"; printf '%s\n' "$output" | sed 's/^/    /' | tail -n 40; fi
}

apt_install() {
	local sudo=""
	if [ "$(id -u)" -ne 0 ]; then
		if command -v sudo >/dev/null && sudo -n true 2>/dev/null; then sudo="sudo -n"; else
			echo "not root and no password-less sudo"; return 1; fi
	fi
	command -v apt-get >/dev/null || { echo "apt-get not found"; return 1; }
	export DEBIAN_FRONTEND=noninteractive
	timeout 150 $sudo apt-get install -y -qq --no-install-recommends "$@" >/dev/null 2>&1 && return 0
	timeout 120 $sudo apt-get update -qq >/dev/null 2>&1
	timeout 150 $sudo apt-get install -y -qq --no-install-recommends "$@" 2>&1 | tail -n 3
	return "${PIPESTATUS[0]}"
}

newest_java() {
	if [ -n "${JAVA_HOME:-}" ] && [ -x "$JAVA_HOME/bin/java" ]; then echo "$JAVA_HOME/bin/java"; return; fi
	local best="" best_version=0 dir version
	for dir in /usr/lib/jvm/*/; do
		[ -x "${dir}bin/java" ] || continue
		version=$("${dir}bin/java" -XshowSettings:properties -version 2>&1 | sed -n 's/^ *java.specification.version = //p' | head -n 1)
		version=${version%%.*}
		if [ -n "$version" ] && [ "$version" -gt "$best_version" ] 2>/dev/null; then best_version=$version; best="${dir}bin/java"; fi
	done
	[ -n "$best" ] && echo "$best" || command -v java
}

taken=""
free_port() {
	local used port hex _
	# Only listening sockets (state 0A): a busy machine has tens of thousands of other lines.
	used=" $taken $(awk '$4 == "0A" { split($2, a, ":"); print a[2] }' /proc/net/tcp /proc/net/tcp6 2>/dev/null \
		| while read -r hex; do echo $((16#$hex)); done | tr '\n' ' ') "
	for _ in $(seq 200); do
		port=$((20000 + RANDOM % 12000))
		case "$used" in *" $port "*) continue ;; esac
		taken="$taken $port"
		REPLY=$port
		return 0
	done
	return 1
}

stop_pid() {
	local pid=$1 seconds=${2:-10} i
	[ -n "$pid" ] && kill -0 "$pid" 2>/dev/null || return 0
	kill -TERM "$pid" 2>/dev/null
	for i in $(seq $((seconds * 5))); do kill -0 "$pid" 2>/dev/null || break; sleep 0.2; done
	kill -KILL "$pid" 2>/dev/null
	wait "$pid" 2>/dev/null
	return 0
}
