#!/usr/bin/env bash
# Checks examples/h2server against clients no one here wrote: curl, nghttp,
# h2load (Debian's curl and nghttp2-client) and h2spec. Run from the repo root:
#
#   bash examples/h2server/ci.sh
#
# It installs what is missing (apt-get; go install for h2spec), starts the
# server on a loopback port once per codec (hqpack, then xnet), and stops
# every server it started, pass or fail.
set -euo pipefail

H2SPEC_VERSION=v2.2.1+incompatible # the latest h2spec on the Go module proxy
CODECS=(${H2SERVER_CODECS:-hqpack xnet})

say() { printf 'h2server ci: %s\n' "$*"; }
fail() {
	printf 'h2server ci: FAIL: %s\n' "$*" >&2
	exit 1
}

# --- tools
if ! command -v curl >/dev/null || ! command -v nghttp >/dev/null || ! command -v h2load >/dev/null; then
	say "installing curl and nghttp2-client"
	sudo=""
	if [ "$(id -u)" -ne 0 ]; then sudo=sudo; fi
	$sudo apt-get update
	DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y curl nghttp2-client
fi
H2SPEC="$(command -v h2spec || true)"
if [ -z "$H2SPEC" ]; then
	H2SPEC="$(go env GOPATH)/bin/h2spec"
	if [ ! -x "$H2SPEC" ]; then
		say "installing h2spec $H2SPEC_VERSION"
		go install "github.com/summerwind/h2spec/cmd/h2spec@$H2SPEC_VERSION"
	fi
fi

# --- the server
work="$(mktemp -d)"
pid=""
stop() {
	if [ -n "$pid" ] && kill -0 "$pid" 2>/dev/null; then
		kill -TERM "$pid" 2>/dev/null || true
		for _ in $(seq 50); do
			kill -0 "$pid" 2>/dev/null || break
			sleep 0.1
		done
		kill -KILL "$pid" 2>/dev/null || true
		wait "$pid" 2>/dev/null || true
	fi
	pid=""
}
trap 'stop; rm -rf "$work"' EXIT
trap 'exit 130' INT TERM

go build -o "$work/h2server" ./examples/h2server

start() { # start CODEC: sets pid and port
	: >"$work/server.log"
	"$work/h2server" -addr 127.0.0.1:0 -codec "$1" 2>"$work/server.log" &
	pid=$!
	port=""
	for _ in $(seq 100); do
		port="$(sed -n 's/^h2server: listening on 127\.0\.0\.1:\([0-9]*\) .*/\1/p' "$work/server.log")"
		[ -n "$port" ] && break
		kill -0 "$pid" 2>/dev/null || fail "the server exited: $(cat "$work/server.log")"
		sleep 0.1
	done
	[ -n "$port" ] || fail "the server did not say its port"
}

passed=0
ok() {
	passed=$((passed + 1))
	say "ok: $*"
}

for codec in "${CODECS[@]}"; do
	start "$codec"
	base="http://127.0.0.1:$port"
	say "codec $codec on $base"

	# curl: status, body and fields of /, a custom field echoed back, and a
	# response of 100 large fields (HEADERS + CONTINUATION).
	code="$(timeout 30 curl -sS --http2-prior-knowledge -D "$work/h" -o "$work/b" -w '%{http_code} %{http_version}' "$base/")"
	[ "$code" = "200 2" ] || fail "curl /: got '$code', want '200 2'"
	[ "$(cat "$work/b")" = "hello, world" ] || fail "curl /: body '$(cat "$work/b")'"
	grep -qix 'content-length: 13' <(tr -d '\r' <"$work/h") || fail "curl /: no content-length: 13 in $(cat "$work/h")"
	grep -qix 'content-type: text/plain; charset=utf-8' <(tr -d '\r' <"$work/h") || fail "curl /: content-type"
	timeout 30 curl -sS --http2-prior-knowledge -D "$work/h" -o "$work/b" -H 'x-ci: checked' "$base/echo"
	grep -qix 'echo-x-ci: checked' <(tr -d '\r' <"$work/h") || fail "curl /echo: no echo-x-ci field"
	grep -qx 'x-ci: checked' "$work/b" || fail "curl /echo: body $(cat "$work/b")"
	timeout 30 curl -sS --http2-prior-knowledge -D "$work/h" -o /dev/null "$base/headers/100"
	n="$(grep -ci '^x-large-' "$work/h" || true)"
	[ "$n" = 100 ] || fail "curl /headers/100: $n x-large fields"
	ok "curl --http2-prior-knowledge"

	# nghttp -v: the same, and the CONTINUATION frames on the wire.
	timeout 30 nghttp -v "$base/" >"$work/n"
	grep -q ':status: 200' "$work/n" || fail "nghttp /: no :status 200"
	grep -q 'content-length: 13' "$work/n" || fail "nghttp /: no content-length: 13"
	grep -qx 'hello, world' "$work/n" || fail "nghttp /: no body"
	# nghttp resets responses with more than 64 KiB of fields: 40 of them.
	# It reports a header block as one HEADERS frame of the block's length:
	# over 16384 (the frame size limit, which it enforces) means CONTINUATION.
	timeout 30 nghttp -v "$base/headers/40" >"$work/n"
	n="$(sed -n '/.*recv HEADERS frame <length=\([0-9]*\),.*/{s//\1/p;q}' "$work/n")"
	[ "${n:-0}" -gt 16384 ] || fail "nghttp /headers/40: header block of ${n:-0} bytes, want > 16384"
	n="$(grep -c 'x-large-[0-9]*: ' "$work/n" || true)"
	[ "$n" = 40 ] || fail "nghttp /headers/40: $n x-large fields"
	ok "nghttp -v"

	# h2load: 20000 requests, 8 connections, 16 streams each.
	timeout 120 h2load -n 20000 -c 8 -m 16 "$base/" >"$work/l"
	grep -E '^(finished|requests:)' "$work/l"
	grep -q '^requests: 20000 total, 20000 started, 20000 done, 20000 succeeded, 0 failed, 0 errored' "$work/l" ||
		fail "h2load: $(grep '^requests:' "$work/l")"
	ok "h2load -n 20000 -c 8 -m 16"

	# h2spec: the HPACK section and HTTP/2 §4.3 and §6.10.
	if ! timeout 120 "$H2SPEC" -h 127.0.0.1 -p "$port" -o 5 hpack http2/4.3 http2/6.10 >"$work/s" 2>&1; then
		cat "$work/s"
		fail "h2spec"
	fi
	summary="$(tail -n 1 "$work/s")"
	echo "$summary"
	[[ "$summary" =~ ^([0-9]+)\ tests,\ ([0-9]+)\ passed,\ 0\ skipped,\ 0\ failed$ ]] &&
		[ "${BASH_REMATCH[1]}" = "${BASH_REMATCH[2]}" ] && [ "${BASH_REMATCH[1]}" -gt 0 ] ||
		fail "h2spec: $summary"
	ok "h2spec hpack http2/4.3 http2/6.10"

	stop
	grep '^h2server: codec=' "$work/server.log" || true
done

say "$passed passed, 0 failed"
