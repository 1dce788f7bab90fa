package crosscheck

import (
	"os"
	"path/filepath"
	"syscall"
	"testing"
)

// lockPeerInstall takes an exclusive flock on base/install.lock, waiting
// for another process's install to finish, and returns the unlock.
func lockPeerInstall(t *testing.T, base string) func() {
	t.Helper()
	if err := os.MkdirAll(base, 0o755); err != nil {
		t.Fatalf("peer: %v", err)
	}
	f, err := os.OpenFile(filepath.Join(base, "install.lock"), os.O_CREATE|os.O_RDWR, 0o644)
	if err != nil {
		t.Fatalf("peer: %v", err)
	}
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX); err != nil {
		f.Close()
		t.Fatalf("peer: lock %s: %v", f.Name(), err)
	}
	return func() {
		syscall.Flock(int(f.Fd()), syscall.LOCK_UN)
		f.Close()
	}
}
