package field

// Byte classes for the validation checks, one table lookup per byte.
const (
	// cName: may appear in a field name (RFC 9110 §5.6.2 tchar, and not
	// uppercase, RFC 9113 §8.2.1, RFC 9114 §4.2).
	cName = 1 << iota
	// cToken: tchar, either case.
	cToken
	// cBadValue: NUL, CR or LF, never in a field value.
	cBadValue
	// cSpace: SP or HTAB, not at either end of a field value.
	cSpace
)

var class = func() (t [256]uint8) {
	for c := 0; c < 256; c++ {
		switch {
		case 'a' <= c && c <= 'z', '0' <= c && c <= '9':
			t[c] = cName | cToken
		case 'A' <= c && c <= 'Z':
			t[c] = cToken
		case c == 0, c == '\r', c == '\n':
			t[c] = cBadValue
		case c == ' ', c == '\t':
			t[c] = cSpace
		}
	}
	for _, c := range "!#$%&'*+-.^_`|~" {
		t[c] = cName | cToken
	}
	return t
}()

// ValidName reports whether name is a valid regular field name: a
// non-empty token (RFC 9110 §5.1) with no uppercase letters (RFC 9113
// §8.2.1, RFC 9114 §4.2). Pseudo-header names are not regular names: check
// them with IsPseudo and ValidPseudo.
func ValidName[T ~string | ~[]byte](name T) bool {
	if len(name) == 0 {
		return false
	}
	for i := 0; i < len(name); i++ {
		if class[name[i]]&cName == 0 {
			return false
		}
	}
	return true
}

// ValidToken reports whether name is a non-empty token (RFC 9110 §5.6.2),
// either case: a valid HTTP/1.1 field name.
func ValidToken[T ~string | ~[]byte](name T) bool {
	if len(name) == 0 {
		return false
	}
	for i := 0; i < len(name); i++ {
		if class[name[i]]&cToken == 0 {
			return false
		}
	}
	return true
}

// IsPseudo reports whether name is a pseudo-header name: it starts with a
// colon (RFC 9113 §8.3, RFC 9114 §4.3).
func IsPseudo[T ~string | ~[]byte](name T) bool {
	return len(name) > 0 && name[0] == ':'
}

// ValidPseudo reports whether name is a colon followed by a valid regular
// field name. It does not check that the pseudo-header is a defined one:
// see KnownPseudo.
func ValidPseudo[T ~string | ~[]byte](name T) bool {
	return len(name) > 1 && name[0] == ':' && ValidName(name[1:])
}

// KnownPseudo reports whether name is one of the pseudo-headers HTTP/2 and
// HTTP/3 define: :authority, :method, :path, :scheme, :status (RFC 9113
// §8.3, RFC 9114 §4.3) and :protocol (RFC 8441, RFC 9220).
func KnownPseudo[T ~string | ~[]byte](name T) bool {
	switch string(name) {
	case ":authority", ":method", ":path", ":scheme", ":status", ":protocol":
		return true
	}
	return false
}

// ValidValue reports whether value is a valid field value: no NUL, CR or
// LF, and no SP or HTAB at either end (RFC 9113 §8.2.1, RFC 9114 §4.2).
// The empty value is valid.
func ValidValue[T ~string | ~[]byte](value T) bool {
	n := len(value)
	if n == 0 {
		return true
	}
	if class[value[0]]&cSpace != 0 || class[value[n-1]]&cSpace != 0 {
		return false
	}
	for i := 0; i < n; i++ {
		if class[value[i]]&cBadValue != 0 {
			return false
		}
	}
	return true
}
