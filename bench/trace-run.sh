#!/usr/bin/env bash
# trace-run.sh OUT [ROUNDS]: the run behind the trace tables of bench/README.md.
#
# Builds the bench and interop test binaries once, then runs ROUNDS (default
# 20) interleaved rounds, each the whole Trace set of interop (hqpack beside
# x/net, quic-go, nghttp2 and nghttp3) and then the Varying and fixed micro
# rows of bench, one run of every row a round; then ConnMemory once. Writes
# OUT/trace.txt and OUT/connmem.txt, and prints benchstat's medians and,
# per target row, the ratio of the medians and the median of the same-round
# ratios ("paired"): a target counts as met when both are within it.
#
# Run it from the repository root on a quiet machine (nothing else running):
# twenty rounds take about twenty minutes. The interop binary needs cgo and
# Debian's libnghttp2-dev and libnghttp3-dev (.ci/run installs them), and
# HQPACK_CORPUS (default ../shared/corpus) the corpus.
set -euo pipefail
out=${1:?usage: bench/trace-run.sh OUT [ROUNDS]}
rounds=${2:-20}
mkdir -p "$out"
out=$(cd "$out" && pwd)
export HQPACK_CORPUS=${HQPACK_CORPUS:-$(cd .. && pwd)/shared/corpus}
go test -c -o "$out/bench.test" ./bench
go test -tags interop -c -o "$out/interop.test" ./interop
for i in $(seq "$rounds"); do
	echo "round $i" >&2
	(cd interop && "$out/interop.test" -test.run '^$' -test.bench Trace -test.count 1 -test.benchmem)
	(cd bench && "$out/bench.test" -test.run '^$' -test.benchmem -test.count 1 \
		-test.bench 'Varying|HPACKEncodeResponse$|QPACKEncodeResponse$|HPACKDecodeRequestWarmTurns$|QPACKDecodeRequest$')
done >"$out/trace.txt"
(cd bench && "$out/bench.test" -test.run '^$' -test.bench ConnMemory -test.benchtime 3x) >"$out/connmem.txt"

if command -v benchstat >/dev/null; then
	benchstat -col /impl -row '.name /table /strings' -filter '.unit:ns/list' "$out/trace.txt"
fi

# Each row's time per list (or per op for the micro rows), by round: a round
# starts at its first HPACKTraceEncode row.
awk '
function median(a, n,    i, j, t) {
	for (i = 2; i <= n; i++) for (j = i; j > 1 && a[j-1] > a[j]; j--) { t = a[j]; a[j] = a[j-1]; a[j-1] = t }
	return n % 2 ? a[(n+1)/2] : (a[n/2] + a[n/2+1]) / 2
}
/^BenchmarkHPACKTraceEncode\/strings=fresh\/impl=hqpack-/ { round++ }
/^Benchmark/ {
	name = $1; sub(/-[0-9]+$/, "", name); sub(/^Benchmark/, "", name)
	v = ""
	for (i = 2; i < NF; i++) if ($(i+1) == "ns/list" || $(i+1) == "ns/block") { v = $i; break }
	if (v == "") for (i = 2; i < NF; i++) if ($(i+1) == "ns/op") { v = $i; break }
	impl = name; sub(/.*impl=/, "", impl); row = name; sub(/\/impl=[^\/]*/, "", row)
	val[row, impl, round] = v; rows[row] = 1
}
END {
	split("HPACKTraceEncode/strings=fresh xnet 0.3333|HPACKTraceEncode/strings=fresh nghttp2 0.65|" \
		"HPACKTraceDecode xnet 0.4|HPACKTraceDecode nghttp2 0.6|" \
		"QPACKTraceEncode/table=static/strings=fresh quicgo 0.6|QPACKTraceEncode/table=static/strings=fresh nghttp3 0.8|" \
		"QPACKTraceDecode/table=static quicgo 0.3|QPACKTraceEncode/table=4096-100-ack/strings=fresh nghttp3 0.8|" \
		"QPACKTraceDecode/table=4096-100-ack nghttp3 0.5|HPACKEncodeResponseVarying xnet 0.25|" \
		"HPACKDecodeRequestVarying xnet 0.25", targets, "|")
	printf "\n%-52s %-8s %9s %9s %7s %7s %7s  %s\n", "row", "peer", "hqpack", "peer", "ratio", "paired", "target", "met"
	for (k = 1; k in targets; k++) {
		split(targets[k], t, " ")
		na = nb = np = 0
		delete a; delete b; delete p
		for (r = 1; r <= round; r++) {
			x = val[t[1], "hqpack", r]; y = val[t[1], t[2], r]
			if (x != "") a[++na] = x
			if (y != "") b[++nb] = y
			if (x != "" && y != "") p[++np] = x / y
		}
		if (!na || !nb) { printf "%-52s %-8s missing\n", t[1], t[2]; continue }
		ma = median(a, na); mb = median(b, nb); mp = median(p, np)
		printf "%-52s %-8s %9.1f %9.1f %7.3f %7.3f %7s  %s\n", t[1], t[2], ma, mb, ma/mb, mp, t[3],
			(ma/mb <= t[3] && mp <= t[3]) ? "yes" : "NO"
	}
}' "$out/trace.txt"
