#!/usr/bin/env bash
# compat/xnet-hpack against golang.org/x/net's own tests. Run from the
# repository root: bash compat/xnet-hpack/ci.sh [-update-readme]
#
#  1. Fetches x/net (the version go.mod requires) through the Go module
#     proxy into a temporary folder; nothing from x/net is kept.
#  2. Filters x/net's http2/hpack tests down to those that type-check
#     against the drop-in (internal/testfilter) and checks that
#     compat/README.md lists the dropped ones as the filter does
#     (-update-readme rewrites that list instead).
#  3. Makes a copy of x/net whose http2/hpack is the drop-in's non-test
#     files plus the kept tests, runs `go test -short ./http2/...` on
#     pristine x/net and on the copy, and fails unless every test that
#     passes on pristine x/net passes on the copy (internal/testcmp).
set -euo pipefail
cd "$(dirname "$0")/../.."
root=$(pwd)

update=""
if [ "${1:-}" = "-update-readme" ]; then
	update=-update
fi

XNET=golang.org/x/net
want=v0.58.0
version=$(go list -m -f '{{.Version}}' "$XNET")
if [ "$version" != "$want" ]; then
	echo "xnet-hpack: go.mod requires $XNET $version; the drop-in mirrors $want" >&2
	exit 1
fi

start=$SECONDS
tmp=$(mktemp -d)
trap 'chmod -R u+w "$tmp" 2>/dev/null; rm -rf "$tmp"' EXIT

dir=$(go mod download -json "$XNET@$version" | sed -n 's/^[[:space:]]*"Dir": "\(.*\)",$/\1/p')
if [ -z "$dir" ] || [ ! -d "$dir/http2/hpack" ]; then
	echo "xnet-hpack: go mod download gave no folder for $XNET@$version" >&2
	exit 1
fi
cp -r "$dir" "$tmp/pristine"
chmod -R u+w "$tmp/pristine"

echo "-- x/net $version's http2/hpack tests, filtered for compat/xnet-hpack"
go run ./compat/xnet-hpack/internal/testfilter \
	-xnet "$tmp/pristine/http2/hpack" -compat compat/xnet-hpack \
	-out "$tmp/kept" -readme compat/README.md $update >/dev/null
echo "compat/README.md lists the dropped tests as the filter finds them"

cp -r "$tmp/pristine" "$tmp/copy"
rm "$tmp/copy/http2/hpack/"*.go
for f in compat/xnet-hpack/*.go; do
	case "$f" in *_test.go) continue ;; esac
	cp "$f" "$tmp/copy/http2/hpack/"
done
cp "$tmp/kept/"*.go "$tmp/copy/http2/hpack/"
(
	cd "$tmp/copy"
	go mod edit -require=github.com/hqpack/hqpack@v0.0.0 -replace=github.com/hqpack/hqpack="$root"
	# The copy's http2 must really run on the drop-in.
	# The list is read whole before grep: grep -q stops at the first match,
	# and under pipefail the SIGPIPE go list then gets fails the test.
	deps=$(go list -deps ./http2)
	if ! grep -qx 'github.com/hqpack/hqpack/hpack' <<<"$deps"; then
		echo "xnet-hpack: the copy's http2 does not import hqpack" >&2
		exit 1
	fi
)

# -count=1: results come from this run, not the test cache. A run's exit
# status is checked through its events (testcmp): a failing test or a
# package that does not build fails there.
echo "-- go test -short ./http2/... on pristine x/net"
(cd "$tmp/pristine" && go test -short -count=1 -json ./http2/... >"$tmp/pristine.json" 2>"$tmp/pristine.err") ||
	echo "(pristine x/net: go test exited non-zero; compared below)"
echo "-- go test -short ./http2/... on the copy with compat/xnet-hpack"
(cd "$tmp/copy" && go test -short -count=1 -json ./http2/... >"$tmp/copy.json" 2>"$tmp/copy.err") ||
	{ cat "$tmp/copy.err" >&2; echo "(the copy: go test exited non-zero)"; }
go run ./compat/xnet-hpack/internal/testcmp -pristine "$tmp/pristine.json" -copy "$tmp/copy.json" \
	-filtered "$XNET/http2/hpack"
echo "xnet-hpack: done in $((SECONDS - start)) s"
