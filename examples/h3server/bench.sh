#!/usr/bin/env bash
# CPU per request of h3server (hqpack's QPACK on quic-go's QUIC) against
# the same routes on quic-go's http3 package (-impl quic-go), the same
# certificate, driven by the same load client (quic-go's http3 client,
# h3client -impl quic-go, one connection, C requests at once), in
# interleaved rounds; then QPACK bytes per request in both directions,
# with h3client's dynamic table and without. Run from the repo root:
#
#   bash examples/h3server/bench.sh            # 5 rounds
#   ROUNDS=9 N=50000 bash examples/h3server/bench.sh
#
# The server is pinned to CPU 1 (GOMAXPROCS 1), the client to CPU 0. CPU
# per request is the server's own getrusage (user + system) read through
# /debug/rusage before and after a run, over the requests of the run.
set -euo pipefail
cd "$(dirname "$0")"

ROUNDS="${ROUNDS:-5}"
N="${N:-20000}"
WARM="${WARM:-2000}"
C="${C:-32}"
SERVER_CPU="${SERVER_CPU:-1}"
CLIENT_CPU="${CLIENT_CPU:-0}"

# With quic-go's client's :method, :scheme, :authority, :path and
# accept-encoding, these make 14 request fields, as a browser's navigation.
PAGE_HEADERS=(
	-H 'user-agent: Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Safari/537.36'
	-H 'accept: text/html,application/xhtml+xml,application/xml;q=0.9,image/avif,image/webp,*/*;q=0.8'
	-H 'accept-language: en-US,en;q=0.9'
	-H 'referer: https://example.com/index.html'
	-H 'cookie: session=0123456789abcdef0123456789abcdef; theme=dark'
	-H 'sec-fetch-mode: navigate'
	-H 'sec-fetch-site: same-origin'
	-H 'upgrade-insecure-requests: 1'
)

work="$(mktemp -d)"
pid=""
stop() {
	if [ -n "$pid" ] && kill -0 "$pid" 2>/dev/null; then
		kill -TERM "$pid" 2>/dev/null || true
		wait "$pid" 2>/dev/null || true
	fi
	pid=""
}
trap 'stop; rm -rf "$work"' EXIT
trap 'exit 130' INT TERM

go build -o "$work/h3server" .
go build -o "$work/h3client" ./h3client
"$work/h3server" -make-cert "$work"

start() { # start IMPL [server flags]
	: >"$work/server.log"
	taskset -c "$SERVER_CPU" "$work/h3server" -addr 127.0.0.1:0 -cert "$work/cert.pem" -key "$work/key.pem" -impl "$@" 2>"$work/server.log" &
	pid=$!
	port=""
	for _ in $(seq 100); do
		port="$(sed -n 's/^h3server: listening on 127\.0\.0\.1:\([0-9]*\) .*/\1/p' "$work/server.log")"
		[ -n "$port" ] && return
		sleep 0.1
	done
	echo "bench: the server did not start" >&2
	exit 1
}

client() { taskset -c "$CLIENT_CPU" "$work/h3client" -addr "127.0.0.1:$port" -ca "$work/cert.pem" -sni localhost "$@"; }
rusage() { client -impl quic-go -n 1 -c 1 -path /debug/rusage -body -q; }

# run IMPL ROUTE PATH [h3client args]: one measured run.
run() {
	local impl=$1 route=$2 path=$3
	shift 3
	client -impl quic-go -n "$WARM" -c "$C" -path "$path" -q "$@"
	read -r u0 s0 q0 < <(rusage)
	client -impl quic-go -n "$N" -c "$C" -path "$path" "$@" >"$work/l"
	read -r u1 s1 q1 < <(rusage)
	rps="$(sed -n 's/.* in [^,]*, \([0-9]*\) req\/s.*/\1/p' "$work/l")"
	# q1 - q0 counts the second /debug/rusage request too.
	read -r cpu user < <(awk -v u="$((u1 - u0))" -v s="$((s1 - s0))" -v n="$((q1 - q0 - 1))" \
		'BEGIN { printf "%.2f %.2f\n", (u + s) / n, u / n }')
	printf '%s\t%s\t%s\t%s\t%s\t%s\n' "$round" "$impl" "$route" "$rps" "$cpu" "$user" | tee -a "$work/results"
}

echo "bench: $ROUNDS rounds, $N requests per run ($C at once, one connection), server on CPU $SERVER_CPU, client on CPU $CLIENT_CPU"
echo "bench: $(nproc) CPUs, load average $(cut -d' ' -f1-3 /proc/loadavg)"
printf 'round\timpl\troute\treq/s\tcpu_us/req\tuser_us/req\n'
for round in $(seq "$ROUNDS"); do
	order=(hqpack quic-go)
	if [ $((round % 2)) = 0 ]; then order=(quic-go hqpack); fi
	for impl in "${order[@]}"; do
		start "$impl"
		run "$impl" / /
		run "$impl" page14x8 /page "${PAGE_HEADERS[@]}"
		stop
	done
done
echo "bench: load average after $(cut -d' ' -f1-3 /proc/loadavg)"

echo
printf '%-9s %-8s %-22s %-22s %-22s\n' route impl 'req/s' 'CPU µs/req' 'user CPU µs/req'
summary() { # summary ROUTE IMPL COLUMN: "median min max"
	awk -F'\t' -v r="$1" -v c="$2" -v k="$3" '$3 == r && $2 == c { print $k }' "$work/results" | sort -g |
		awk '{ v[NR] = $1 } END { m = (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2; printf "%.2f %.2f %.2f\n", m, v[1], v[NR] }'
}
for route in / page14x8; do
	for impl in hqpack quic-go; do
		read -r rm rlo rhi < <(summary "$route" "$impl" 4)
		read -r cm clo chi < <(summary "$route" "$impl" 5)
		read -r um ulo uhi < <(summary "$route" "$impl" 6)
		printf '%-9s %-8s %-22s %-22s %-22s\n' "$route" "$impl" \
			"$(printf '%.0f [%.0f-%.0f]' "$rm" "$rlo" "$rhi")" \
			"$(printf '%.1f [%.1f-%.1f]' "$cm" "$clo" "$chi")" \
			"$(printf '%.1f [%.1f-%.1f]' "$um" "$ulo" "$uhi")"
	done
	awk -F'\t' -v r="$route" '$3 == r { v[$1, $2] = $5; rounds[$1] = 1 }
		END { for (i in rounds) print v[i, "hqpack"] - v[i, "quic-go"] }' "$work/results" | sort -g |
		awk -v r="$route" '{ d[NR] = $1; if ($1 < 0) less++ } END { m = (NR % 2) ? d[(NR + 1) / 2] : (d[NR / 2] + d[NR / 2 + 1]) / 2
			printf "%-9s paired by round: CPU/req hqpack - quic-go median %+.1f µs [%+.1f..%+.1f], hqpack lower in %d of %d rounds\n", r, m, d[1], d[NR], less + 0, NR }'
done

# QPACK bytes per request, /page with the 14 fields, from the server's
# counters: client to server = request sections + the client's encoder
# stream + its decoder stream; server to client the same the other way.
echo
echo "QPACK bytes per request (/page, $N requests on one connection, $C at once; HEADERS payloads and QPACK stream bytes):"
printf '%-38s %-16s %-16s\n' client 'client->server' 'server->client'
for setup in "hqpack 4096" "hqpack 0" "quic-go 0"; do
	read -r cimpl capacity <<<"$setup"
	start hqpack -stats -qpack-capacity "$capacity"
	client -impl "$cimpl" -qpack-capacity "$capacity" -n "$N" -c "$C" -path /page -q "${PAGE_HEADERS[@]}"
	stop
	line="$(grep '^h3server: stats conn=' "$work/server.log")"
	c() { sed -n "s/.* $1=\([0-9]*\).*/\1/p" <<<" $line"; }
	awk -v n="$(c requests)" -v a="$(c section_bytes_recv)" -v b="$(c encoder_stream_recv)" -v d="$(c decoder_stream_recv)" \
		-v e="$(c section_bytes_sent)" -v f="$(c encoder_stream_sent)" -v g="$(c decoder_stream_sent)" -v who="$cimpl, table $capacity" \
		'BEGIN { printf "%-38s %-16.1f %-16.1f\n", who, (a + b + d) / n, (e + f + g) / n }'
done
