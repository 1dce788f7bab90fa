package tf

import (
	"math"
	"strconv"
	"strings"
)

// msgForm selects the text template of a lookup failure.
type msgForm uint8

const (
	formNone msgForm = iota
	// TimeCache failures (cache.cpp createExtrapolationException1..3).
	formEmptyCache // Jazzy sets only the error code: the text is empty
	formSingle
	formFuture
	formPast
	// BufferCore failures.
	formConnectivity
	formLoop
	formNotDefined
	// Frame validation (validateFrameId), throwing and non-throwing forms.
	formArgEmpty
	formArgSlash
	formArgUnknown
	formCanEmpty
	formCanSlash
	formCanUnknown
)

// Error is a lookup failure: the kind tf2 classifies it as and the data for
// its message. The text, byte for byte tf2's (Jazzy), is built only when
// Error is called, so failing lookups that nobody prints stay cheap.
type Error struct {
	// Kind classifies the failure.
	Kind ErrorKind

	form     msgForm
	suffix   bool   // append ", when looking up transform from frame [...] to frame [...]"
	req      int64  // requested time (extrapolation forms)
	have     int64  // latest/earliest/only stamp (extrapolation forms)
	arg      string // "lookupTransform argument target_frame" ...
	frame    string // the offending frame name (validation forms)
	source   string
	target   string
	prebuilt string // loop texts, which embed a snapshot of the tree
}

// Exception returns the name of the C++ exception tf2's lookupTransform
// throws for this failure. Every extrapolation kind maps to
// ExtrapolationException: Jazzy's BufferCore passes no error code from the
// TimeCache to walkToTopParent (buffer_core.cpp, read at ros2/geometry2
// 00c9c51), so the finer Kind is bagclock's, taken from the failing link.
func (e *Error) Exception() string {
	switch {
	case e.Kind == ConnectivityError:
		return "ConnectivityException"
	case e.Kind.IsExtrapolation():
		return "ExtrapolationException"
	case e.Kind == InvalidArgumentError:
		return "InvalidArgumentException"
	}
	return "LookupException"
}

// Error returns tf2's message text.
func (e *Error) Error() string {
	var sb strings.Builder
	sb.Grow(160)
	switch e.form {
	case formEmptyCache:
	case formSingle:
		sb.WriteString("Lookup would require extrapolation at time ")
		writeTime(&sb, e.req)
		sb.WriteString(", but only time ")
		writeTime(&sb, e.have)
		sb.WriteString(" is in the buffer")
	case formFuture:
		sb.WriteString("Lookup would require extrapolation into the future.  Requested time ")
		writeTime(&sb, e.req)
		sb.WriteString(" but the latest data is at time ")
		writeTime(&sb, e.have)
	case formPast:
		sb.WriteString("Lookup would require extrapolation into the past.  Requested time ")
		writeTime(&sb, e.req)
		sb.WriteString(" but the earliest data is at time ")
		writeTime(&sb, e.have)
	case formConnectivity:
		sb.WriteString("Could not find a connection between '")
		sb.WriteString(e.target)
		sb.WriteString("' and '")
		sb.WriteString(e.source)
		sb.WriteString("' because they are not part of the same tree.Tf has two or more unconnected trees.")
	case formLoop:
		sb.WriteString(e.prebuilt)
	case formNotDefined:
		sb.WriteString("Source or target frame is not yet defined")
	case formArgEmpty, formArgSlash:
		sb.WriteString(`Invalid argument "`)
		sb.WriteString(e.frame)
		sb.WriteString(`" passed to `)
		sb.WriteString(e.arg)
		if e.form == formArgEmpty {
			sb.WriteString(" - in tf2 frame_ids cannot be empty")
		} else {
			sb.WriteString(" - in tf2 frame_ids cannot start with a '/'")
		}
	case formArgUnknown:
		sb.WriteByte('"')
		sb.WriteString(e.frame)
		sb.WriteString(`" passed to `)
		sb.WriteString(e.arg)
		sb.WriteString(" does not exist. ")
	case formCanEmpty, formCanSlash, formCanUnknown:
		sb.WriteString(`Invalid frame ID "`)
		sb.WriteString(e.frame)
		sb.WriteString(`" passed to `)
		sb.WriteString(e.arg)
		switch e.form {
		case formCanEmpty:
			sb.WriteString(" - in tf2 frame_ids cannot be empty")
		case formCanSlash:
			sb.WriteString(" - in tf2 frame_ids cannot start with a '/'")
		default:
			sb.WriteString(" - frame does not exist")
		}
	default:
		return "tf error"
	}
	if e.suffix {
		sb.WriteString(", when looking up transform from frame [")
		sb.WriteString(e.source)
		sb.WriteString("] to frame [")
		sb.WriteString(e.target)
		sb.WriteByte(']')
	}
	return sb.String()
}

// kindOf maps a TimeCache failure to its error kind.
func kindOf(f msgForm) ErrorKind {
	switch f {
	case formFuture:
		return ForwardExtrapolationError
	case formPast:
		return BackwardExtrapolationError
	case formSingle, formEmptyCache:
		return NoDataForExtrapolationError
	case formConnectivity:
		return ConnectivityError
	case formArgEmpty, formArgSlash, formCanEmpty, formCanSlash:
		return InvalidArgumentError
	}
	return LookupError
}

// DurationToSec is tf2's durationToSec: the nanosecond count is split with
// truncating division into seconds and a remainder, both cast to int32 (so
// values past 2038 wrap, as in tf2), and recombined as sec + 1e-9·nsec.
func DurationToSec(ns int64) float64 {
	nsec := int32(ns % 1_000_000_000)
	sec := int32((ns - int64(nsec)) / 1_000_000_000)
	return float64(sec) + 1e-9*float64(nsec)
}

// DisplayTime is tf2's displayTimePoint: DurationToSec printed with six
// decimals.
func DisplayTime(ns int64) string {
	return strconv.FormatFloat(DurationToSec(ns), 'f', 6, 64)
}

func writeTime(sb *strings.Builder, ns int64) {
	var buf [40]byte
	sb.Write(strconv.AppendFloat(buf[:0], DurationToSec(ns), 'f', 6, 64))
}

// RejectError is a refused SetTransform. tf2 runs all validations and logs
// one line for each that fails; Code and Text are the first, Also holds the
// others in tf2's order.
type RejectError struct {
	// Code classifies the refusal.
	Code RejectCode
	// Text is tf2's log line (ERROR level for the validations, WARN for
	// TF_OLD_DATA, which spans two lines).
	Text string
	// Also lists further failed validations of the same transform.
	Also []RejectError
}

// Error returns every logged text, one per line.
func (e *RejectError) Error() string {
	if len(e.Also) == 0 {
		return e.Text
	}
	var sb strings.Builder
	sb.WriteString(e.Text)
	for _, o := range e.Also {
		sb.WriteByte('\n')
		sb.WriteString(o.Text)
	}
	return sb.String()
}

// cf formats a double like C's printf("%f"), including glibc's spellings
// of NaN and infinities.
func cf(v float64) string {
	switch {
	case math.IsNaN(v):
		if math.Signbit(v) {
			return "-nan"
		}
		return "nan"
	case math.IsInf(v, 1):
		return "inf"
	case math.IsInf(v, -1):
		return "-inf"
	}
	return strconv.FormatFloat(v, 'f', 6, 64)
}

func itoa(v int64) string { return strconv.FormatInt(v, 10) }
