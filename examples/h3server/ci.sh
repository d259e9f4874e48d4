#!/usr/bin/env bash
# Checks examples/h3server and h3client against HTTP/3 implementations no
# one here wrote: ngtcp2's example client and server (Debian's
# ngtcp2-client and ngtcp2-server: gtlsclient, gtlsserver, on nghttp3 with
# a dynamic table) and quic-go's http3 client; then h3client against
# h3server over a matrix of QPACK settings, and the module's Go tests
# under -race. Run from the repo root:
#
#   bash examples/h3server/ci.sh
#
# It installs what is missing (apt-get), starts each server on a loopback
# port and stops every process it started, pass or fail.
set -euo pipefail
cd "$(dirname "$0")"

STATICCHECK_VERSION=v0.8.2

say() { printf 'h3server ci: %s\n' "$*"; }
fail() {
	printf 'h3server ci: FAIL: %s\n' "$*" >&2
	exit 1
}
started=$SECONDS

# --- tools
if ! command -v gtlsclient >/dev/null || [ ! -x /usr/sbin/gtlsserver ]; then
	say "installing ngtcp2-client and ngtcp2-server"
	sudo=""
	if [ "$(id -u)" -ne 0 ]; then sudo=sudo; fi
	$sudo apt-get update
	DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y ngtcp2-client ngtcp2-server iproute2
fi
GTLSSERVER="$(command -v gtlsserver || echo /usr/sbin/gtlsserver)"

# --- the module's own checks
say "gofmt, go vet, staticcheck $STATICCHECK_VERSION (nested module)"
unformatted=$(gofmt -l .)
[ -z "$unformatted" ] || fail "gofmt would change: $unformatted"
go vet ./...
go install "honnef.co/go/tools/cmd/staticcheck@$STATICCHECK_VERSION"
"$(go env GOPATH)/bin/staticcheck" ./...
say "go test -race ./..."
go test -race ./...

work="$(mktemp -d)"
pids=()
stop() { # stop PID: TERM, then KILL after 5 s
	local p=$1
	if kill -0 "$p" 2>/dev/null; then
		kill -TERM "$p" 2>/dev/null || true
		for _ in $(seq 50); do
			kill -0 "$p" 2>/dev/null || break
			sleep 0.1
		done
		kill -KILL "$p" 2>/dev/null || true
	fi
	wait "$p" 2>/dev/null || true
}
cleanup() {
	for p in "${pids[@]}"; do stop "$p"; done
	rm -rf "$work"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

go build -o "$work/h3server" .
go build -o "$work/h3client" ./h3client
"$work/h3server" -make-cert "$work"

server_pid=""
start_server() { # start_server ARGS...: sets server_pid and port
	: >"$work/server.log"
	"$work/h3server" -addr 127.0.0.1:0 -cert "$work/cert.pem" -key "$work/key.pem" -stats "$@" 2>"$work/server.log" &
	server_pid=$!
	pids+=("$server_pid")
	port=""
	for _ in $(seq 100); do
		port="$(sed -n 's/^h3server: listening on 127\.0\.0\.1:\([0-9]*\) .*/\1/p' "$work/server.log")"
		[ -n "$port" ] && break
		kill -0 "$server_pid" 2>/dev/null || fail "the server exited: $(cat "$work/server.log")"
		sleep 0.1
	done
	[ -n "$port" ] || fail "the server did not say its port"
}
stop_server() { # stop_server: stops it; its counters' line is then in server.log
	stop "$server_pid"
	grep -q '^h3server: stats total ' "$work/server.log" || fail "no counters from the server: $(cat "$work/server.log")"
}
# counter NAME LINE: the value of NAME=... in LINE
counter() { sed -n "s/.* $1=\([0-9]*\).*/\1/p" <<<" $2"; }
passed=0
ok() {
	passed=$((passed + 1))
	say "ok: $*"
}

# --- ngtcp2's client (nghttp3, dynamic table on) against h3server: 200
# requests on one connection, / and /page in turn.
start_server
timeout 60 gtlsclient --no-quic-dump --exit-on-all-streams-close -n 200 127.0.0.1 "$port" \
	"https://127.0.0.1:$port/" "https://127.0.0.1:$port/page" >"$work/gtlsclient.out" 2>&1 ||
	fail "gtlsclient exited $?: $(tail -n 5 "$work/gtlsclient.out")"
stop_server
n200="$(grep -c '^http: stream 0x[0-9a-f]* \[:status: 200\]$' "$work/gtlsclient.out" || true)"
npage="$(grep -c '^http: stream 0x[0-9a-f]* \[server: h3server\]$' "$work/gtlsclient.out" || true)"
# Each body as gtlsclient dumps it (hex, then the bytes with '.' for the
# unprintable ones), put together per stream: a body may come in pieces.
read -r nhello npagebody < <(awk '
	/^http: stream 0x[0-9a-f]* body [0-9]* bytes$/ { s = $3; next }
	/^[0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f]  / && s != "" { i = index($0, "|"); body[s] = body[s] substr($0, i + 1, length($0) - i - 1); next }
	{ s = "" }
	END {
		page = "<!doctype html>.<html><head><title>h3server</title></head>.<body><p>A page served over HTTP/3 with hqpack.</p></body></html>."
		for (k in body) { if (body[k] == "hello, world.") h++; else if (body[k] == page) p++ }
		printf "%d %d\n", h, p
	}' "$work/gtlsclient.out")
say "gtlsclient: $n200 responses with :status 200, $nhello bodies 'hello, world', $npage /page responses with $npagebody page bodies"
[ "$n200" = 200 ] && [ "$nhello" = 100 ] && [ "$npage" = 100 ] && [ "$npagebody" = 100 ] || fail "gtlsclient: wrong responses"
line="$(grep '^h3server: stats conn=' "$work/server.log")"
echo "$line"
[ "$(counter requests "$line")" = 200 ] || fail "gtlsclient: the server answered $(counter requests "$line") requests"
[ "$(counter dynamic_refs_recv "$line")" -gt 0 ] && [ "$(counter dynamic_refs_sent "$line")" -gt 0 ] ||
	fail "gtlsclient: no dynamic references both ways"
[ "$(counter inserts_recv "$line")" -gt 0 ] && [ "$(counter inserts_sent "$line")" -gt 0 ] || fail "gtlsclient: no inserts both ways"
[ "$(counter connection_errors "$line")" = 0 ] && [ "$(counter stream_errors "$line")" = 0 ] || fail "gtlsclient: errors"
ok "gtlsclient -n 200 against h3server (dynamic references both ways, no errors)"

# --- h3client against ngtcp2's server (gtlsserver, nghttp3, dynamic table
# on) serving a directory: 200 requests of 36 fields, 20 at once, bodies
# compared with the files.
mkdir -p "$work/docs"
for i in 0 1 2 3; do
	head -c $((1500 * (i + 1))) /dev/urandom | base64 >"$work/docs/file$i.txt"
done
"$GTLSSERVER" -q -d "$work/docs" 127.0.0.1 0 "$work/key.pem" "$work/cert.pem" >"$work/gtlsserver.log" 2>&1 &
gpid=$!
pids+=("$gpid")
gport=""
for _ in $(seq 50); do
	# Read whole, then matched: a reader that stops early would SIGPIPE ss
	# and fail the step under pipefail.
	sockets="$(ss -ulpnH 2>/dev/null || true)"
	gport="$(sed -n "/.*127\.0\.0\.1:\([0-9]*\) .*pid=$gpid,.*/{s//\1/p;q}" <<<"$sockets")"
	[ -n "$gport" ] && break
	kill -0 "$gpid" 2>/dev/null || fail "gtlsserver exited: $(cat "$work/gtlsserver.log")"
	sleep 0.1
done
[ -n "$gport" ] || fail "gtlsserver's port not found"
paths="/file0.txt,/file1.txt,/file2.txt,/file3.txt"
timeout 60 "$work/h3client" -addr "127.0.0.1:$gport" -sni localhost -ca "$work/cert.pem" -n 200 -c 20 -path "$paths" \
	-fields 30 -H 'user-agent: h3client' -H 'accept: */*' -check docroot -docroot "$work/docs" -stats >"$work/c" ||
	fail "h3client against gtlsserver: $(cat "$work/c")"
cat "$work/c"
line="$(grep '^h3client: stats ' "$work/c")"
[ "$(counter dynamic_refs_recv "$line")" -gt 0 ] && [ "$(counter dynamic_refs_sent "$line")" -gt 0 ] ||
	fail "gtlsserver: no dynamic references both ways"
[ "$(counter connection_errors "$line")" = 0 ] && [ "$(counter stream_errors "$line")" = 0 ] || fail "gtlsserver: errors"
stop "$gpid"
ok "h3client -n 200 -fields 30 against gtlsserver (dynamic references both ways, no errors)"

# --- quic-go's http3 client (static-only QPACK) against h3server: 100
# requests at once to /echo, every field checked.
start_server
timeout 60 "$work/h3client" -impl quic-go -addr "127.0.0.1:$port" -ca "$work/cert.pem" -sni localhost -n 100 -c 100 \
	-path /echo -fields 30 -check echo >"$work/c" || fail "quic-go's client: $(cat "$work/c")"
cat "$work/c"
stop_server
line="$(grep '^h3server: stats conn=' "$work/server.log")"
echo "$line"
[ "$(counter requests "$line")" = 100 ] && [ "$(counter connection_errors "$line")" = 0 ] || fail "quic-go's client: server counters"
ok "quic-go's http3 client, 100 requests at once, against h3server"

# --- h3client against h3server over the QPACK settings matrix, the
# client's encoder stream held back 20 ms so sections can arrive before
# their inserts: sections may block only where both settings allow it. The
# first requests go one at a time (-warmup), so that with no blocked streams
# allowed there are acknowledged entries to reference, whatever the timing.
for blocked in 0 1 100; do
	for capacity in 0 256 4096; do
		start_server -qpack-blocked "$blocked" -qpack-capacity "$capacity"
		timeout 60 "$work/h3client" -addr "127.0.0.1:$port" -ca "$work/cert.pem" -sni localhost -n 100 -c 10 \
			-path /echo -fields 30 -check echo -qpack-blocked "$blocked" -qpack-capacity "$capacity" \
			-hold-encoder 20ms -warmup 100ms -q -stats >"$work/c" || fail "matrix blocked=$blocked capacity=$capacity: $(cat "$work/c")"
		stop_server
		line="$(grep '^h3server: stats conn=' "$work/server.log")"
		sb="$(counter sections_blocked "$line")"
		mb="$(counter max_blocked "$line")"
		refs="$(counter dynamic_refs_recv "$line")/$(counter dynamic_refs_sent "$line")"
		printf 'h3server ci: matrix blocked=%-3s capacity=%-4s requests=%s sections_blocked=%s max_blocked=%s dynamic_refs_recv/sent=%s connection_errors=%s\n' \
			"$blocked" "$capacity" "$(counter requests "$line")" "$sb" "$mb" "$refs" "$(counter connection_errors "$line")"
		[ "$(counter requests "$line")" = 100 ] && [ "$(counter connection_errors "$line")" = 0 ] || fail "matrix: errors"
		[ "$mb" -le "$blocked" ] || fail "matrix: $mb sections blocked at once, over $blocked"
		if [ "$blocked" = 0 ] || [ "$capacity" = 0 ]; then
			[ "$sb" = 0 ] || fail "matrix: $sb sections blocked where the settings allow none"
		else
			[ "$sb" -gt 0 ] || fail "matrix: no section blocked with blocked=$blocked capacity=$capacity"
		fi
		if [ "$capacity" = 0 ]; then
			[ "$refs" = 0/0 ] || fail "matrix: dynamic references with capacity 0"
		else
			[ "$(counter dynamic_refs_recv "$line")" -gt 0 ] && [ "$(counter dynamic_refs_sent "$line")" -gt 0 ] ||
				fail "matrix: no dynamic references"
		fi
	done
done
ok "h3client against h3server, blocked 0/1/100 x capacity 0/256/4096"

say "$passed passed, 0 failed ($((SECONDS - started)) s)"
