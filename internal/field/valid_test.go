package field

import (
	"fmt"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/leanovate/gopter"
	"github.com/leanovate/gopter/gen"
	"github.com/leanovate/gopter/prop"
)

// Reference implementations, written from the RFC text.

func refTchar(c byte) bool {
	return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' ||
		strings.IndexByte("!#$%&'*+-.^_`|~", c) >= 0
}

func refUpper(c byte) bool { return 'A' <= c && c <= 'Z' }

func refValidToken(s string) bool {
	for i := 0; i < len(s); i++ {
		if !refTchar(s[i]) {
			return false
		}
	}
	return s != ""
}

func refValidName(s string) bool { return refValidToken(s) && strings.ToLower(s) == s }

func refValidPseudo(s string) bool {
	return strings.HasPrefix(s, ":") && refValidName(s[1:])
}

func refKnownPseudo(s string) bool {
	for _, p := range []string{":authority", ":method", ":path", ":scheme", ":status", ":protocol"} {
		if s == p {
			return true
		}
	}
	return false
}

func refValidValue(s string) bool {
	if strings.ContainsAny(s, "\x00\r\n") {
		return false
	}
	return strings.Trim(s, " \t") == s
}

func refLower(s string) string {
	b := []byte(s)
	for i, c := range b {
		if refUpper(c) {
			b[i] = c + 'a' - 'A'
		}
	}
	return string(b)
}

// validity is every check's answer for one input, for cmp.Diff.
type validity struct {
	Name, Token, IsPseudo, Pseudo, Known, Value, Lower bool
	AppendLower                                        string
}

func refValidity(s string) validity {
	return validity{
		refValidName(s), refValidToken(s), strings.HasPrefix(s, ":"), refValidPseudo(s),
		refKnownPseudo(s), refValidValue(s), refLower(s) == s, refLower(s),
	}
}

func checks[T ~string | ~[]byte](s T) validity {
	return validity{
		ValidName(s), ValidToken(s), IsPseudo(s), ValidPseudo(s),
		KnownPseudo(s), ValidValue(s), IsLower(s), string(AppendLower([]byte("x"), s)[1:]),
	}
}

func checkValidity(s string) string {
	want := refValidity(s)
	if d := cmp.Diff(want, checks(s)); d != "" {
		return fmt.Sprintf("string %q: %s", s, d)
	}
	if d := cmp.Diff(want, checks([]byte(s))); d != "" {
		return fmt.Sprintf("[]byte %q: %s", s, d)
	}
	return ""
}

func TestValidEveryByte(t *testing.T) {
	for c := range 256 {
		b := string([]byte{byte(c)})
		for _, s := range []string{b, "a" + b + "b", b + "ab", "ab" + b, ":" + b, ":a" + b, b + b} {
			if d := checkValidity(s); d != "" {
				t.Error(d)
			}
		}
	}
}

func TestIsLowerEveryPosition(t *testing.T) {
	// Every byte at every offset of the first two words and the tail:
	// the word-at-a-time check must see each lane.
	for n := 1; n <= 19; n++ {
		for i := range n {
			for c := range 256 {
				b := []byte(strings.Repeat("a", n))
				b[i] = byte(c)
				if got, want := IsLower(b), !refUpper(byte(c)); got != want {
					t.Fatalf("IsLower(%q) = %v", b, got)
				}
				if got, want := IsLower(string(b)), !refUpper(byte(c)); got != want {
					t.Fatalf("IsLower(string %q) = %v", b, got)
				}
			}
		}
	}
}

func TestKnownPseudo(t *testing.T) {
	for _, s := range []string{":authority", ":method", ":path", ":scheme", ":status", ":protocol"} {
		if !KnownPseudo(s) || !ValidPseudo(s) || !IsPseudo(s) || ValidName(s) {
			t.Errorf("%s: known %v, valid pseudo %v, pseudo %v, regular name %v", s, KnownPseudo(s), ValidPseudo(s), IsPseudo(s), ValidName(s))
		}
	}
	for _, s := range []string{"", ":", "::path", ":Path", ":path ", "path", ":foo"} {
		if KnownPseudo(s) {
			t.Errorf("KnownPseudo(%q) = true", s)
		}
	}
}

// genField yields names and values near the boundaries of every check:
// token characters, uppercase, separators, controls, spaces at the ends.
func genField() gopter.Gen {
	near := gen.OneConstOf(byte('a'), byte('z'), byte('A'), byte('Z'), byte('0'), byte('-'), byte(':'),
		byte(' '), byte('\t'), byte(0), byte('\r'), byte('\n'), byte('"'), byte('@'), byte('['),
		byte('`'), byte('{'), byte(0x7f), byte(0x80), byte(0xc1), byte(0xff))
	return gen.OneGenOf(
		gen.SliceOf(gen.UInt8()).Map(func(b []byte) string { return string(b) }),
		gen.SliceOf(near).Map(func(b []byte) string { return string(b) }),
		gen.SliceOf(gen.Weighted([]gen.WeightedGen{
			{Weight: 20, Gen: gen.UInt8Range('a', 'z')}, {Weight: 1, Gen: near},
		})).Map(func(b []byte) string { return string(b) }),
		gen.OneConstOf(":authority", ":method", ":path", ":scheme", ":status", ":protocol", ":pat", ":paths"),
	)
}

func TestValidRandom(t *testing.T) {
	params := gopter.DefaultTestParameters()
	params.MinSuccessfulTests = 10000
	t.Logf("gopter seed %d", params.Seed())
	p := gopter.NewProperties(params)
	p.Property("checks == reference", prop.ForAll(checkValidity, genField()))
	p.Property("IsLower and AppendLower agree with strings.ToLower on ASCII", prop.ForAll(
		func(b []byte) string {
			for i := range b {
				b[i] &= 0x7f
			}
			s := string(b)
			if IsLower(s) != (strings.ToLower(s) == s) {
				return fmt.Sprintf("IsLower(%q) = %v", s, IsLower(s))
			}
			return cmp.Diff(strings.ToLower(s), string(AppendLower(nil, s)))
		},
		gen.SliceOf(gen.UInt8()),
	))
	p.TestingRun(t)
}

func TestValidAllocs(t *testing.T) {
	name, value := []byte(":authority"), []byte("example.com")
	dst := make([]byte, 0, 64)
	allocs := testing.AllocsPerRun(100, func() {
		ok := ValidName(name) && ValidPseudo(name) && KnownPseudo(name) && ValidValue(value) && IsLower(value)
		dst = AppendLower(dst[:0], "Content-Type")
		if ok {
			t.Fatal("unreachable: :authority is not a regular name")
		}
	})
	if allocs != 0 {
		t.Errorf("validation: %v allocs per run", allocs)
	}
}

func BenchmarkIsLower(b *testing.B) {
	for _, s := range []string{"content-type", "access-control-allow-credentials"} {
		b.Run(fmt.Sprintf("len=%d", len(s)), func(b *testing.B) {
			for b.Loop() {
				if !IsLower(s) {
					b.Fatal(s)
				}
			}
		})
	}
}
