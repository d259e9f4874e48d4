#!/usr/bin/env bash
# End-to-end comparison of the header codecs: the same server with
# -codec hqpack and -codec xnet, pinned to one core, loaded by h2load pinned
# to the other, in interleaved rounds. Run from the repo root:
#
#   bash examples/h2server/bench.sh            # 5 rounds
#   ROUNDS=9 N=100000 bash examples/h2server/bench.sh
#
# Two routes: / (3 response fields, h2load's 5 request fields) and /page
# (8 response fields) with 13 request fields. For each run it reports
# h2load's requests/s and the server's CPU time per request, from its own
# getrusage (user + system) read through /debug/rusage before and after.
# Needs h2load, curl and taskset; at least 2 cores.
set -euo pipefail

ROUNDS="${ROUNDS:-5}"
N="${N:-50000}"
WARM="${WARM:-5000}"
SERVER_CPU="${SERVER_CPU:-1}"
CLIENT_CPU="${CLIENT_CPU:-0}"
LOAD=(-c 8 -m 16)

# h2load sends :method, :scheme, :authority, :path and user-agent; these
# make 13 fields, as a browser's navigation request has.
PAGE_HEADERS=(
	-H 'user-agent: Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Safari/537.36'
	-H 'accept: text/html,application/xhtml+xml,application/xml;q=0.9,image/avif,image/webp,*/*;q=0.8'
	-H 'accept-language: en-US,en;q=0.9'
	-H 'accept-encoding: gzip, deflate, br'
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

go build -o "$work/h2server" ./examples/h2server

start() {
	: >"$work/server.log"
	taskset -c "$SERVER_CPU" "$work/h2server" -addr 127.0.0.1:0 -codec "$1" 2>"$work/server.log" &
	pid=$!
	port=""
	for _ in $(seq 100); do
		port="$(sed -n 's/^h2server: listening on 127\.0\.0\.1:\([0-9]*\) .*/\1/p' "$work/server.log")"
		[ -n "$port" ] && return
		sleep 0.1
	done
	echo "bench: the server did not start" >&2
	exit 1
}

rusage() { curl -sS --http2-prior-knowledge "http://127.0.0.1:$port/debug/rusage"; }

# run CODEC ROUTE PATH [h2load args]: one measured h2load run.
run() {
	local codec=$1 route=$2 path=$3
	shift 3
	taskset -c "$CLIENT_CPU" h2load -n "$WARM" "${LOAD[@]}" "$@" "http://127.0.0.1:$port$path" >/dev/null
	read -r u0 s0 q0 < <(rusage)
	taskset -c "$CLIENT_CPU" h2load -n "$N" "${LOAD[@]}" "$@" "http://127.0.0.1:$port$path" >"$work/l"
	read -r u1 s1 q1 < <(rusage)
	grep -q "^requests: $N total, $N started, $N done, $N succeeded, 0 failed, 0 errored" "$work/l" || {
		cat "$work/l" >&2
		exit 1
	}
	rps="$(sed -n 's/^finished in [^,]*, \([0-9.]*\) req\/s.*/\1/p' "$work/l")"
	# q1 - q0 counts the second /debug/rusage request too.
	read -r cpu user < <(awk -v u="$((u1 - u0))" -v s="$((s1 - s0))" -v n="$((q1 - q0 - 1))" \
		'BEGIN { printf "%.3f %.3f\n", (u + s) / n, u / n }')
	printf '%s\t%s\t%s\t%s\t%s\t%s\n' "$round" "$codec" "$route" "$rps" "$cpu" "$user" | tee -a "$work/results"
}

echo "bench: $ROUNDS rounds, $N requests per run (h2load ${LOAD[*]}), server on CPU $SERVER_CPU, h2load on CPU $CLIENT_CPU"
echo "bench: $(nproc) CPUs, load average $(cut -d' ' -f1-3 /proc/loadavg)"
printf 'round\tcodec\troute\treq/s\tcpu_us/req\tuser_us/req\n'
for round in $(seq "$ROUNDS"); do
	order=(hqpack xnet)
	if [ $((round % 2)) = 0 ]; then order=(xnet hqpack); fi
	for codec in "${order[@]}"; do
		start "$codec"
		run "$codec" / /
		run "$codec" page13x8 /page "${PAGE_HEADERS[@]}"
		stop
	done
done
echo "bench: load average after $(cut -d' ' -f1-3 /proc/loadavg)"

# Medians, with the min-max spread, per codec and route; then the ratios.
echo
printf '%-9s %-7s %-26s %-26s %-26s\n' route codec 'req/s' 'CPU µs/req (user+sys)' 'user CPU µs/req'
summary() { # summary ROUTE CODEC COLUMN: "median min max"
	awk -F'\t' -v r="$1" -v c="$2" -v k="$3" '$3 == r && $2 == c { print $k }' "$work/results" | sort -g |
		awk '{ v[NR] = $1 } END { m = (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2; printf "%.3f %.3f %.3f\n", m, v[1], v[NR] }'
}
for route in / page13x8; do
	for codec in hqpack xnet; do
		read -r rm rlo rhi < <(summary "$route" "$codec" 4)
		read -r cm clo chi < <(summary "$route" "$codec" 5)
		read -r um ulo uhi < <(summary "$route" "$codec" 6)
		printf '%-9s %-7s %-26s %-26s %-26s\n' "$route" "$codec" \
			"$(printf '%.0f [%.0f-%.0f]' "$rm" "$rlo" "$rhi")" \
			"$(printf '%.2f [%.2f-%.2f]' "$cm" "$clo" "$chi")" \
			"$(printf '%.2f [%.2f-%.2f]' "$um" "$ulo" "$uhi")"
		eval "rps_$codec=$rm cpu_$codec=$cm user_$codec=$um"
	done
	awk -v rh="$rps_hqpack" -v rx="$rps_xnet" -v ch="$cpu_hqpack" -v cx="$cpu_xnet" -v uh="$user_hqpack" -v ux="$user_xnet" -v r="$route" \
		'BEGIN { printf "%-9s medians, hqpack/xnet: req/s x%.2f, CPU/req x%.2f (%+.2f µs), user CPU/req x%.2f (%+.2f µs)\n", r, rh / rx, ch / cx, ch - cx, uh / ux, uh - ux }'
	# Paired by round (the two runs of a round are back to back): the
	# median difference, and in how many rounds hqpack used less CPU.
	for k in 5 6; do
		awk -F'\t' -v r="$route" -v k="$k" '$3 == r { v[$1, $2] = $k; rounds[$1] = 1 }
			END { for (i in rounds) print v[i, "hqpack"] - v[i, "xnet"] }' "$work/results" | sort -g |
			awk -v r="$route" -v what="$([ "$k" = 5 ] && echo CPU || echo 'user CPU')" \
				'{ d[NR] = $1; if ($1 < 0) less++ } END { m = (NR % 2) ? d[(NR + 1) / 2] : (d[NR / 2] + d[NR / 2 + 1]) / 2
				printf "%-9s paired by round: %s/req hqpack - xnet median %+.2f µs [%+.2f..%+.2f], hqpack lower in %d of %d rounds\n", r, what, m, d[1], d[NR], less, NR }'
	done
done
