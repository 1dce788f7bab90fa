package sweeptest

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/bagclock/bagclock/internal/testenv"
)

// fakeSSH stands in for ssh: GNU parallel sends each job to its host with
// `ssh [options] HOST -- COMMAND`; this runs COMMAND here and logs the host
// and the exit code, so docs/scan.md's -S host1,host2,host3 line runs unchanged
// with three "hosts" on this machine.
const fakeSSH = `#!/bin/bash
while [ $# -gt 0 ]; do
  case "$1" in
    -[bcDEeFIiJLlmOopQRSWw]) shift 2 ;;
    -*) shift ;;
    *) break ;;
  esac
done
host=$1; shift
[ "$1" = "--" ] && shift
bash -c "$*"
rc=$?
echo "$host $rc" >> "$FAKE_SSH_LOG"
exit $rc
`

// testParallel runs docs/scan.md's GNU parallel block: three shards, one per
// host, then the merge.
func (s *sweep) testParallel(t *testing.T) {
	if _, err := exec.LookPath("parallel"); err != nil {
		testenv.PeerMissing(t, "GNU parallel is not installed (%v); apt-get install parallel", err)
	}
	block := s.docBlock(t, "parallel")
	if !strings.Contains(block, "/shared/archive ") || !strings.Contains(block, "-S 1/host1,1/host2,1/host3 ") {
		t.Fatalf("docs/scan.md's parallel block does not scan /shared/archive on host1..host3:\n%s", block)
	}
	work := filepath.Join(s.dir, "parallel")
	for _, d := range []string{"home", "bin"} {
		if err := os.MkdirAll(filepath.Join(work, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	ssh := filepath.Join(work, "bin", "ssh")
	if err := os.WriteFile(ssh, []byte(fakeSSH), 0o755); err != nil {
		t.Fatal(err)
	}
	sshLog := filepath.Join(work, "ssh.log")
	bash, err := exec.LookPath("bash")
	if err != nil {
		t.Fatal(err)
	}
	// parallel's remote wrapper runs each job with $SHELL on the "host";
	// a CI runner may start the tests without SHELL, and then every job
	// silently does nothing and parallel exits 0. A user's terminal has it.
	env := []string{"SHELL=" + bash, "PARALLEL_SSH=" + ssh, "PARALLEL_HOME=" + filepath.Join(work, "home"), "FAKE_SSH_LOG=" + sshLog}
	// Only the paths change: the archive is the generated one (so rows
	// keep the paths of the one-process scan), /shared/results is here.
	block = strings.ReplaceAll(block, "/shared/archive", s.arch)
	block = strings.ReplaceAll(block, "/shared/", work+"/")
	cmds := commands(block)
	if len(cmds) != 2 {
		t.Fatalf("docs/scan.md's parallel block: want the parallel line and the merge line, got %q", cmds)
	}

	sweep := s.bash(work, env, cmds[0])
	// parallel exits with the number of failed jobs: the shard with the
	// broken bag exits 3.
	if sweep.code != 1 {
		t.Fatalf("parallel: exit %d, want 1 (one shard has the broken bag): %s", sweep.code, sweep)
	}
	if n := strings.Count(sweep.stderr, "bagclock scan: "); n != 3 {
		t.Errorf("parallel: %d scan summaries, want 3:\n%s", n, sweep.stderr)
	}
	logData, err := os.ReadFile(sshLog)
	if err != nil {
		t.Fatalf("no job went through ssh: %v\n%s", err, sweep)
	}
	var hosts, codes []string
	for _, line := range strings.Split(strings.TrimSpace(string(logData)), "\n") {
		h, c, _ := strings.Cut(line, " ")
		hosts, codes = append(hosts, h), append(codes, c)
	}
	sort.Strings(hosts)
	sort.Strings(codes)
	if fmt.Sprint(hosts) != "[host1 host2 host3]" || fmt.Sprint(codes) != "[0 0 3]" {
		t.Errorf("jobs per host: hosts %v exit codes %v, want one job on each of host1..host3, exits 0, 0 and 3", hosts, codes)
	}
	for k := 1; k <= 3; k++ {
		want := s.wantShards(3)[k]
		got := sortedKeys(readRows(t, filepath.Join(work, "results", fmt.Sprintf("scan-%d", k))))
		if strings.Join(got, " ") != strings.Join(want, " ") {
			t.Errorf("shard %d/3 scanned %v, want %v", k, got, want)
		}
	}

	merge := s.bash(work, env, cmds[1])
	if merge.code != 3 || !strings.Contains(merge.stderr, fmt.Sprintf("bagclock merge: 3 inputs, %d bags:", len(s.rows))) {
		t.Fatalf("merge: exit %d, want 3 (an error row) and a summary of %d bags: %s", merge.code, len(s.rows), merge)
	}
	s.sameOutput(t, filepath.Join(work, "results", "all"))
	t.Logf("GNU parallel, 3 shards on 3 one-slot hosts over %d bags: %s; one-process scan: %s",
		len(s.rows), sweep.dur.Round(1e6), s.singleT.Round(1e6))
}
