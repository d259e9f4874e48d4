#!/usr/bin/env bash
# Checks the quic-go/qpack drop-in: its own tests, the tests that set it
# beside github.com/quic-go/qpack (peer/), and quic-go/qpack's own test
# files run against it. Run from the repo root:
#
#   bash compat/quic-go-qpack/ci.sh
#
# quic-go/qpack's tests are fetched from the Go module proxy, never
# committed. They run twice, on quic-go/qpack's own code and on the drop-in
# (its files in place of quic-go's, under quic-go's import path), and every
# test that passes on the first must pass on the second.
set -euo pipefail

QPACK_VERSION=v0.6.0
QPACK_FUZZ_EXECS=${QPACK_FUZZ_EXECS:-100000x}
repo="$(pwd)"
compat="$repo/compat/quic-go-qpack"
export HQPACK_CORPUS="${HQPACK_CORPUS:-$(cd "$repo/.." && pwd)/shared/corpus}"
if [ ! -d "$HQPACK_CORPUS/qifs" ]; then
	echo "quic-go-qpack ci: no QIFS corpus at $HQPACK_CORPUS" >&2
	exit 1
fi

say() { printf 'quic-go-qpack ci: %s\n' "$*"; }
work="$(mktemp -d)"
trap 'chmod -R u+w "$work"; rm -rf "$work"' EXIT

# .ci/run installs staticcheck; the nested modules need a run of their own.
lint() {
	go vet ./...
	if [ -x "$(go env GOPATH)/bin/staticcheck" ]; then "$(go env GOPATH)/bin/staticcheck" ./...; fi
}

say "the drop-in's tests (go vet, staticcheck, go test -race)"
(cd "$compat" && lint && go test -race ./...)

say "beside quic-go/qpack $QPACK_VERSION (peer/: same bytes, same fields, same errors)"
(cd "$compat/peer" && lint && go test ./...)
for t in $(grep -ho '^func Fuzz[A-Za-z0-9_]*' "$compat"/peer/*_test.go | sed 's/^func //' | sort); do
	say "-- $t ($QPACK_FUZZ_EXECS)"
	(cd "$compat/peer" && go test -run '^$' -fuzz "^${t}\$" -fuzztime "$QPACK_FUZZ_EXECS" -fuzzminimizetime 5s .)
done

# quic-go/qpack's tests: the internal ones (package qpack) reach quic-go's
# private helpers, so its varint.go and static_table.go come along as test
# files (input builders and expected values, quic-go's own). The two tests
# below check quic-go's private encoderMap against its private static
# table, both quic-go's copies: they say nothing of the code under test and
# are skipped in both runs (compat/README.md).
NOT_APPLICABLE='TestEncoderMapHasValueForEveryStaticTableEntry|TestStaticTableasValueForEveryEncoderMapEntry'
src="$(go mod download -json "github.com/quic-go/qpack@$QPACK_VERSION" | sed -n 's/^\t"Dir": "\(.*\)",$/\1/p')"
if [ -z "$src" ] || [ ! -d "$src" ]; then
	echo "quic-go-qpack ci: could not download github.com/quic-go/qpack@$QPACK_VERSION" >&2
	exit 1
fi

# setup DIR CODE...: a module github.com/quic-go/qpack in DIR with the given
# non-test files and quic-go/qpack's tests, the QIFS corpus where its
# interop test looks for it.
setup() {
	local dir="$1"
	shift
	mkdir -p "$dir/interop/qifs/qifs" "$dir/interop/qifs/encoded"
	cp "$@" "$dir/"
	cp "$src"/*_test.go "$dir/"
	cp "$src/interop/interop_test.go" "$dir/interop/"
	cp "$HQPACK_CORPUS"/qifs/qifs/*.qif "$dir/interop/qifs/qifs/"
	# Upstream's qpack-06 is a link to qpack-05, which the corpus keeps.
	ln -s "$HQPACK_CORPUS/qifs/encoded/qpack-05" "$dir/interop/qifs/encoded/qpack-06"
	chmod -R u+w "$dir"
	cat >"$dir/go.mod" <<MOD
module github.com/quic-go/qpack

go 1.25.0

require (
	github.com/hqpack/hqpack v0.0.0-00010101000000-000000000000
	github.com/stretchr/testify v1.9.0
	golang.org/x/net v0.28.0
)

replace github.com/hqpack/hqpack => $repo
MOD
	(cd "$dir" && GOFLAGS=-mod=mod go mod tidy >/dev/null 2>&1 || GOFLAGS=-mod=mod go mod tidy)
}

# run DIR OUT: quic-go/qpack's tests in DIR, -race, each test's result in
# OUT as "PASS name" lines (top-level tests and subtests).
run() {
	(cd "$1" && go test -race -count 1 -v -skip "$NOT_APPLICABLE" ./... 2>&1) >"$2.log" || true
	sed -n 's/^ *--- \(PASS\|FAIL\|SKIP\): \([^ ]*\) .*/\1 \2/p' "$2.log" | sort >"$2"
}

say "quic-go/qpack $QPACK_VERSION's tests on its own code"
setup "$work/pristine" "$src/decoder.go" "$src/encoder.go" "$src/header_field.go" "$src/static_table.go" "$src/varint.go"
run "$work/pristine" "$work/pristine.results"

say "quic-go/qpack $QPACK_VERSION's tests on the drop-in"
setup "$work/dropin" $(ls "$compat"/*.go | grep -v '_test\.go$')
cp "$src/varint.go" "$work/dropin/varint_quicgo_test.go"
# getStaticTable is the drop-in's own (the external test links to it).
sed 's/^func getStaticTable(/func quicgoStaticTable(/' "$src/static_table.go" >"$work/dropin/static_table_quicgo_test.go"
chmod u+w "$work/dropin"/*_quicgo_test.go
run "$work/dropin" "$work/dropin.results"

# count RESULT FILE: tests (no / in the name) and subtests with that result.
count() { echo "$(grep -c "^$1 [^/]*\$" "$2" || true) ($(grep -c "^$1 " "$2" || true) with subtests)"; }
for r in pristine dropin; do
	say "$r: $(count '[A-Z]*' "$work/$r.results") run, $(count PASS "$work/$r.results") passed, $(count FAIL "$work/$r.results") failed, $(count SKIP "$work/$r.results") skipped"
done
say "not applicable, skipped in both: ${NOT_APPLICABLE//|/, }"
if grep -q '^FAIL' "$work/pristine.results" || ! grep -q '^ok' "$work/pristine.results.log"; then
	cat "$work/pristine.results.log" >&2
	echo "quic-go-qpack ci: quic-go/qpack's own tests do not pass on its own code" >&2
	exit 1
fi
missing="$(comm -23 <(grep '^PASS' "$work/pristine.results") <(grep '^PASS' "$work/dropin.results"))"
if [ -n "$missing" ] || grep -q '^FAIL' "$work/dropin.results" || grep -q '^FAIL' "$work/dropin.results.log"; then
	grep -E -B2 -A20 '^\s*--- FAIL|^FAIL|panic' "$work/dropin.results.log" >&2 || cat "$work/dropin.results.log" >&2
	echo "quic-go-qpack ci: passed on quic-go/qpack, not on the drop-in:" >&2
	echo "${missing:-(see above)}" >&2
	exit 1
fi
say "every test that passes on quic-go/qpack passes on the drop-in"
