package qpack

import (
	"errors"
	"strings"
	"testing"

	"github.com/hqpack/hqpack/fastpath"
	"github.com/hqpack/hqpack/internal/codectest"
)

// TestClosedAfterConnectionError: after a connection error every call
// fails with fastpath.ErrClosed (carrying the original code), nothing more is
// written to the decoder stream, and nothing is reported unblocked.
func TestClosedAfterConnectionError(t *testing.T) {
	for _, encoderSide := range []bool{false, true} {
		d := newTestDecoder(t, 10)
		mustRead(t, d, insertLiteral("a", "b", false))
		// A held section and a queued acknowledgment that must not leak out.
		d.DecodeSection(4, cat(sectionPrefix(2, 2, 128), indexedDynamic(0)), codectest.Discard{})
		mustDecode(t, d, 8, cat(sectionPrefix(1, 1, 128), indexedDynamic(0)))
		var first error
		code := ErrCodeDecompressionFailed
		if encoderSide {
			code = ErrCodeEncoderStream
			first = d.ReadEncoderStream(duplicate(5))
		} else {
			_, first = d.DecodeSection(12, cat(sectionPrefix(1, 1, 128), indexedDynamic(7)), codectest.Discard{})
		}
		wantCode(t, first, code, fastpath.ErrInvalidIndex)
		mustRead := d.ReadEncoderStream(insertLiteral("c", "d", false))
		_, dec := d.DecodeSection(16, []byte{0, 0}, codectest.Discard{})
		_, unb := d.DecodeUnblocked(4, codectest.Discard{})
		cancel := d.CancelStream(4)
		for i, err := range []error{mustRead, dec, unb, cancel} {
			e := wantCode(t, err, code, fastpath.ErrClosed)
			if errors.Is(err, fastpath.ErrInvalidIndex) {
				t.Errorf("call %d: %v also matches the first cause", i, err)
			}
			if !e.ConnectionError() {
				t.Errorf("call %d: not a connection error", i)
			}
		}
		if out := d.AppendDecoderStream([]byte("x")); string(out) != "x" {
			t.Errorf("decoder stream after failure: %q", out)
		}
		if _, ok := d.NextUnblocked(); ok {
			t.Error("unblocked after failure")
		}
	}
}

// TestErrorValues: codes, messages and errors.Is on the error types.
func TestErrorValues(t *testing.T) {
	for code, name := range map[ErrCode]string{
		ErrCodeDecompressionFailed: "QPACK_DECOMPRESSION_FAILED",
		ErrCodeEncoderStream:       "QPACK_ENCODER_STREAM_ERROR",
		ErrCodeDecoderStream:       "QPACK_DECODER_STREAM_ERROR",
		ErrCodeMessage:             "H3_MESSAGE_ERROR",
		0x33:                       "ErrCode(0x33)",
	} {
		if code.String() != name {
			t.Errorf("%#x: %q, want %q", uint64(code), code.String(), name)
		}
	}
	e := &Error{Code: ErrCodeDecompressionFailed, StreamID: 8, Offset: 3, Err: fastpath.ErrInvalidIndex}
	if s := e.Error(); !strings.Contains(s, "QPACK_DECOMPRESSION_FAILED") || !strings.Contains(s, "invalid index") ||
		!strings.Contains(s, "stream 8") || !strings.Contains(s, "offset 3") {
		t.Errorf("message %q", s)
	}
	for _, kind := range []error{fastpath.ErrInvalidFieldName, fastpath.ErrInvalidFieldValue, fastpath.ErrPseudoAfterRegular} {
		err := error(&Error{Code: ErrCodeMessage, Err: kind})
		if !errors.Is(err, fastpath.ErrMalformedField) || !errors.Is(err, kind) {
			t.Errorf("%v: not both fastpath.ErrMalformedField and itself", kind)
		}
	}
	for _, other := range []error{fastpath.ErrSectionTooLarge, fastpath.ErrStringTooLong, ErrTooManyFields, fastpath.ErrInvalidIndex} {
		if errors.Is(other, fastpath.ErrMalformedField) {
			t.Errorf("%v is not a malformed field", other)
		}
	}
	// The wire causes are the wire package's, shared with hpack.
	d := newDecoder(DecoderConfig{})
	_, err := d.DecodeSection(0, []byte{0x00, 0x00, 0x51, 0x85, 0xff, 0xff, 0xff, 0xff, 0xff}, codectest.Discard{})
	wantCode(t, err, ErrCodeDecompressionFailed, fastpath.ErrHuffmanEOS)
	d = newDecoder(DecoderConfig{})
	_, err = d.DecodeSection(0, []byte{0x00, 0x00, 0x51, 0x81, 0xfe}, codectest.Discard{})
	wantCode(t, err, ErrCodeDecompressionFailed, fastpath.ErrHuffmanPaddingBits)
}
