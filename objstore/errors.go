package objstore

import (
	"errors"
	"fmt"
	"time"

	awshttp "github.com/aws/aws-sdk-go-v2/aws/transport/http"
	"github.com/aws/smithy-go"
)

// ErrChanged is the error of a read of an object that changed (another
// ETag) since the bag was opened: its bytes would mix two versions.
var ErrChanged = errors.New("the object changed while it was read (its ETag differs from when the bag was opened); rerun to read the new version")

// ErrTooLarge is the error of an object too big for a private copy.
var ErrTooLarge = errors.New("too large for a private copy")

// statusOf is the HTTP status of a failed request, 0 if it got none.
func statusOf(err error) int {
	var re *awshttp.ResponseError
	if errors.As(err, &re) {
		return re.HTTPStatusCode()
	}
	return 0
}

// permanent reports whether another attempt cannot help: the server
// refused the credentials or the request, the object is gone or changed.
func permanent(err error) bool {
	if errors.Is(err, ErrChanged) || errors.Is(err, ErrTooLarge) {
		return true
	}
	switch statusOf(err) {
	case 400, 401, 403, 404, 405, 409, 412, 416:
		return true
	}
	return false
}

// requestError is a failed request in a sentence a user can act on:
// the object, what was asked, the status and the service's code, and
// what to check. It keeps the SDK's error for errors.Is/As but not its
// text, which is long (request ids); neither holds credentials.
type requestError struct {
	object, what string
	err          error
}

func (e *requestError) Error() string {
	msg := describe(e.err)
	var te *tryError
	stalled, attempts := time.Duration(0), 0
	for err := e.err; errors.As(err, &te); err = te.err {
		if te.stalled > 0 {
			stalled = te.stalled
		}
		if te.attempts > 0 {
			attempts = te.attempts
		}
	}
	if stalled > 0 {
		msg = fmt.Sprintf("no complete answer within %v (BAGCLOCK_S3_TIMEOUT)", stalled)
	}
	if attempts > 1 {
		msg += fmt.Sprintf(" (after %d attempts)", attempts)
	}
	return fmt.Sprintf("%s: %s: %s", e.object, e.what, msg)
}

func (e *requestError) Unwrap() error { return e.err }

// describe is the short text of an SDK error.
func describe(err error) string {
	if errors.Is(err, ErrChanged) {
		return ErrChanged.Error()
	}
	if errors.Is(err, ErrTooLarge) {
		return err.Error()
	}
	status := statusOf(err)
	var api smithy.APIError
	code, text := "", ""
	if errors.As(err, &api) {
		code, text = api.ErrorCode(), api.ErrorMessage()
	}
	var hint string
	switch status {
	case 401, 403:
		hint = " (the store refused the credentials or this access: check AWS_PROFILE, AWS_ACCESS_KEY_ID, the shared credentials file, and the bucket's policy)"
	case 404:
		hint = " (no such bucket or key)"
	}
	switch {
	case status != 0 && code != "":
		s := fmt.Sprintf("HTTP %d %s", status, code)
		if text != "" && text != code {
			s += ": " + text
		}
		return s + hint
	case status != 0:
		return fmt.Sprintf("HTTP %d%s", status, hint)
	}
	var oe *smithy.OperationError
	if errors.As(err, &oe) {
		return oe.Err.Error()
	}
	return err.Error()
}
