package testenv

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// recorder is a testing.TB that records Fatalf and Skipf instead of ending
// the test, so the helpers' decisions can be checked.
type recorder struct {
	testing.TB
	fatal, skip string
}

type stopped struct{}

func (r *recorder) Helper() {}
func (r *recorder) Fatalf(format string, args ...any) {
	r.fatal = fmt.Sprintf(format, args...)
	panic(stopped{})
}
func (r *recorder) Skipf(format string, args ...any) {
	r.skip = fmt.Sprintf(format, args...)
	panic(stopped{})
}

// run calls f with a recorder and returns it once f returns or stops.
func run(t *testing.T, f func(tb testing.TB)) (r *recorder) {
	r = &recorder{TB: t}
	defer func() {
		if v := recover(); v != nil {
			if _, ok := v.(stopped); !ok {
				panic(v)
			}
		}
	}()
	f(r)
	return r
}

// A missing ../shared (or bag in it) skips with a message, and fails under
// BAGCLOCK_REQUIRE_PEERS=1 as CI sets, so CI never passes without it.
func TestSharedMissing(t *testing.T) {
	empty := t.TempDir()
	withBags := t.TempDir()
	if err := os.MkdirAll(filepath.Join(withBags, "bags", "present"), 0o755); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name, shared, require string
		call                  func(tb testing.TB)
		wantFatal, wantSkip   bool
	}{
		{"dir missing, skip", empty, "", func(tb testing.TB) { SharedDir(tb) }, false, true},
		{"dir missing, required", empty, "1", func(tb testing.TB) { SharedDir(tb) }, true, false},
		{"bag of missing dir, required", empty, "1", func(tb testing.TB) { SharedBag(tb, "present") }, true, false},
		{"bag missing, skip", withBags, "", func(tb testing.TB) { SharedBag(tb, "absent") }, false, true},
		{"bag missing, required", withBags, "1", func(tb testing.TB) { SharedBag(tb, "absent") }, true, false},
		{"bag present, required", withBags, "1", func(tb testing.TB) { SharedBag(tb, "present") }, false, false},
		{"dir present, required", withBags, "1", func(tb testing.TB) { SharedDir(tb) }, false, false},
		{"peer missing, skip", withBags, "", func(tb testing.TB) { PeerMissing(tb, "no %s", "node") }, false, true},
		{"peer missing, required", withBags, "1", func(tb testing.TB) { PeerMissing(tb, "no %s", "node") }, true, false},
		{"other value is not required", withBags, "yes", func(tb testing.TB) { PeerMissing(tb, "no node") }, false, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Setenv("BAGCLOCK_SHARED", tc.shared)
			t.Setenv("BAGCLOCK_REQUIRE_PEERS", tc.require)
			r := run(t, tc.call)
			if (r.fatal != "") != tc.wantFatal || (r.skip != "") != tc.wantSkip {
				t.Fatalf("fatal %q, skip %q; want fatal %v, skip %v", r.fatal, r.skip, tc.wantFatal, tc.wantSkip)
			}
			if msg := r.fatal + r.skip; msg != "" && !containsAny(msg, tc.shared, "node") {
				t.Errorf("message %q names neither the directory nor the peer", msg)
			}
		})
	}
}

func containsAny(s string, subs ...string) bool {
	for _, sub := range subs {
		if sub != "" && strings.Contains(s, sub) {
			return true
		}
	}
	return false
}
