package sweeptest

import (
	"bufio"
	"crypto/rand"
	"encoding/json"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/bagclock/bagclock/analysis/archive"
	"github.com/bagclock/bagclock/internal/s3test"
	"github.com/bagclock/bagclock/internal/testenv"
)

// slurmShards is the array the test submits: sbatch --array=1-4.
const slurmShards = 4

// cluster is a single-node Slurm cluster of this host: munged, slurmctld
// and slurmd in the foreground as children of the test, every file in dir.
type cluster struct {
	s       *sweep
	dir     string
	conf    string
	env     []string // SLURM_CONF for the clients
	daemons []*daemon
}

// daemon is one running daemon.
type daemon struct {
	name string
	cmd  *exec.Cmd
	done chan struct{}
	err  error
}

// slurmTools are the Debian binaries the cluster needs.
var slurmTools = []string{"munged", "slurmctld", "slurmd", "sbatch", "scancel", "scontrol", "sinfo"}

// startCluster writes slurm.conf for this host (its CPU count, no cgroups:
// proctrack/linuxproc, task/none, so it runs as root in a container without
// systemd), starts the daemons and waits until the node is idle. The
// daemons are stopped when the test ends, failed or not.
func (s *sweep) startCluster(t *testing.T) *cluster {
	for _, tool := range slurmTools {
		if _, err := exec.LookPath(tool); err != nil {
			testenv.PeerMissing(t, "Slurm is not installed (%s: %v); apt-get install slurm-wlm munge", tool, err)
		}
	}
	if os.Geteuid() != 0 {
		testenv.PeerMissing(t, "the single-node Slurm cluster runs its daemons as root; running as uid %d", os.Geteuid())
	}
	cpus := runtime.NumCPU()
	if cpus < 2 {
		t.Fatalf("docs/scan.md's job array asks for --cpus-per-task=2; this host has %d CPU", cpus)
	}
	memMiB := memTotalMiB(t) * 9 / 10
	if memMiB < 2048 {
		t.Fatalf("docs/scan.md's job array asks for --mem=2G; this host has %d MiB to give", memMiB)
	}
	host, err := os.Hostname()
	if err != nil {
		t.Fatal(err)
	}
	host, _, _ = strings.Cut(host, ".") // slurmd names its node by the short hostname

	begin := time.Now()
	dir := filepath.Join(s.dir, "slurm")
	c := &cluster{s: s, dir: dir, conf: filepath.Join(dir, "slurm.conf")}
	c.env = []string{"SLURM_CONF=" + c.conf}
	for _, d := range []string{"munge", "state", "spool", "log"} {
		if err := os.MkdirAll(filepath.Join(dir, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	t.Cleanup(func() { c.stop(t) })

	key := make([]byte, 1024)
	if _, err := rand.Read(key); err != nil {
		t.Fatal(err)
	}
	keyFile := filepath.Join(dir, "munge", "munge.key")
	if err := os.WriteFile(keyFile, key, 0o600); err != nil {
		t.Fatal(err)
	}
	sock := filepath.Join(dir, "munge", "munge.socket")
	c.start(t, "munged", "--foreground", "--force", "--key-file="+keyFile, "--socket="+sock,
		"--pid-file="+filepath.Join(dir, "munge", "munged.pid"), "--log-file="+filepath.Join(dir, "log", "munged.log"),
		"--seed-file="+filepath.Join(dir, "munge", "munged.seed"))
	if !c.waitFor(t, 30*time.Second, func() bool { _, err := os.Stat(sock); return err == nil }) {
		c.fatalf(t, "munged did not create %s within 30 s", sock)
	}

	ctldPort, dPort := freePort(t), freePort(t)
	conf := fmt.Sprintf(`# single-node cluster of the bagclock sweep test
ClusterName=bagclocktest
SlurmctldHost=%[1]s(127.0.0.1)
SlurmctldPort=%[2]d
SlurmdPort=%[3]d
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
AuthInfo=socket=%[4]s
CredType=cred/munge
StateSaveLocation=%[5]s/state
SlurmdSpoolDir=%[5]s/spool
SlurmctldPidFile=%[5]s/slurmctld.pid
SlurmdPidFile=%[5]s/slurmd.pid
SlurmctldLogFile=%[5]s/log/slurmctld.log
SlurmdLogFile=%[5]s/log/slurmd.log
SlurmctldDebug=info
SlurmdDebug=info
# no cgroups, no accounting: root in a container without systemd
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/none
SwitchType=switch/none
MpiDefault=none
SchedulerType=sched/backfill
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
ReturnToService=2
# keep finished jobs visible to scontrol for the whole test
MinJobAge=3600
NodeName=%[1]s NodeAddr=127.0.0.1 CPUs=%[6]d RealMemory=%[7]d State=UNKNOWN
PartitionName=sweep Nodes=%[1]s Default=YES MaxTime=INFINITE State=UP
`, host, ctldPort, dPort, sock, dir, cpus, memMiB)
	if err := os.WriteFile(c.conf, []byte(conf), 0o644); err != nil {
		t.Fatal(err)
	}
	c.start(t, "slurmctld", "-D", "-f", c.conf)
	c.start(t, "slurmd", "-D", "-f", c.conf)

	var state string
	if !c.waitFor(t, 120*time.Second, func() bool {
		r := c.run("sinfo", "-h", "-N", "-o", "%T")
		state = strings.TrimSpace(r.stdout)
		return r.code == 0 && state == "idle"
	}) {
		c.fatalf(t, "node %s not idle within 120 s (sinfo: %q)", host, state)
	}
	t.Logf("Slurm cluster up in %s: node %s, %d CPUs, %d MiB, slurmctld port %d", time.Since(begin).Round(100*time.Millisecond), host, cpus, memMiB, ctldPort)
	return c
}

// start runs one daemon in the foreground, in its own process group,
// killed by the kernel if the test process dies first.
func (c *cluster) start(t *testing.T, name string, args ...string) {
	path, err := exec.LookPath(name)
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(path, args...)
	cmd.Dir = c.dir
	cmd.Env = c.s.env(c.env)
	out, err := os.Create(filepath.Join(c.dir, "log", name+".out"))
	if err != nil {
		t.Fatal(err)
	}
	defer out.Close()
	cmd.Stdout, cmd.Stderr = out, out
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL}
	if err := cmd.Start(); err != nil {
		c.fatalf(t, "start %s: %v", name, err)
	}
	d := &daemon{name: name, cmd: cmd, done: make(chan struct{})}
	go func() { d.err = cmd.Wait(); close(d.done) }()
	c.daemons = append(c.daemons, d)
}

// stop kills the jobs' processes, then stops the daemons (SIGTERM, then
// SIGKILL after 15 s), newest first, then anything left with the marker.
func (c *cluster) stop(t *testing.T) {
	keep := map[int]bool{}
	for _, d := range c.daemons {
		keep[d.cmd.Process.Pid] = true
	}
	killMarked(t, c.s.dir, keep)
	for i := len(c.daemons) - 1; i >= 0; i-- {
		d := c.daemons[i]
		select {
		case <-d.done:
			continue
		default:
		}
		d.cmd.Process.Signal(syscall.SIGTERM)
		select {
		case <-d.done:
		case <-time.After(15 * time.Second):
			t.Logf("cleanup: %s ignored SIGTERM for 15 s; killing it", d.name)
			syscall.Kill(-d.cmd.Process.Pid, syscall.SIGKILL)
			<-d.done
		}
	}
	killMarked(t, c.s.dir, nil)
}

// exited reports a daemon that has ended.
func (c *cluster) exited() string {
	for _, d := range c.daemons {
		select {
		case <-d.done:
			return fmt.Sprintf("%s exited: %v", d.name, d.err)
		default:
		}
	}
	return ""
}

// waitFor polls cond every 250 ms until it holds, a daemon dies or the
// timeout (or the test's deadline) passes.
func (c *cluster) waitFor(t *testing.T, timeout time.Duration, cond func() bool) bool {
	end := time.Now().Add(timeout)
	for {
		if cond() {
			return true
		}
		if msg := c.exited(); msg != "" {
			c.fatalf(t, "%s", msg)
		}
		if time.Now().After(end) || c.s.ctx.Err() != nil {
			return false
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// fatalf fails the test with the daemons' logs.
func (c *cluster) fatalf(t *testing.T, format string, args ...any) {
	t.Helper()
	t.Fatalf(format+"\n%s", append(args, c.logs())...)
}

// logs returns the tail of each daemon's log file, and of its stderr when
// it has exited (a daemon that fails early says why there).
func (c *cluster) logs() string {
	var b strings.Builder
	tail := func(f string) {
		data, err := os.ReadFile(f)
		if err != nil || len(data) == 0 {
			return
		}
		lines := strings.Split(strings.TrimRight(string(data), "\n"), "\n")
		if len(lines) > 40 {
			lines = lines[len(lines)-40:]
		}
		fmt.Fprintf(&b, "--- %s (last %d lines)\n%s\n", f, len(lines), strings.Join(lines, "\n"))
	}
	for _, d := range c.daemons {
		tail(filepath.Join(c.dir, "log", d.name+".log"))
		select {
		case <-d.done:
			tail(filepath.Join(c.dir, "log", d.name+".out"))
		default:
		}
	}
	return b.String()
}

// run runs a Slurm client command against this cluster.
func (c *cluster) run(name string, args ...string) result {
	return c.s.run(c.dir, c.env, name, args...)
}

// job is one record of `scontrol -o show job`.
type job map[string]string

// jobs returns the records of a job id (an array gives one per task).
func (c *cluster) jobs(t *testing.T, id string) []job {
	r := c.run("scontrol", "-o", "show", "job", id)
	if r.code != 0 {
		c.fatalf(t, "scontrol show job %s: %s", id, r)
	}
	var out []job
	for _, line := range strings.Split(strings.TrimSpace(r.stdout), "\n") {
		j := job{}
		for _, f := range strings.Fields(line) {
			if k, v, ok := strings.Cut(f, "="); ok {
				j[k] = v
			}
		}
		out = append(out, j)
	}
	return out
}

var endStates = map[string]bool{"COMPLETED": true, "FAILED": true, "CANCELLED": true, "TIMEOUT": true,
	"NODE_FAIL": true, "PREEMPTED": true, "OUT_OF_MEMORY": true, "BOOT_FAIL": true, "DEADLINE": true}

// waitJobs waits until the job (every task of an array, n of them) has
// ended, and returns its records by array task id ("" for a plain job).
func (c *cluster) waitJobs(t *testing.T, id string, n int, timeout time.Duration) map[string]job {
	var recs []job
	ok := c.waitFor(t, timeout, func() bool {
		recs = c.jobs(t, id)
		if len(recs) != n {
			return false
		}
		for _, j := range recs {
			if !endStates[j["JobState"]] {
				return false
			}
		}
		return true
	})
	if !ok {
		c.fatalf(t, "job %s: not all of its %d tasks ended within %s: %v", id, n, timeout, recs)
	}
	byTask := map[string]job{}
	for _, j := range recs {
		task := j["ArrayTaskId"]
		if task == "N/A" {
			task = ""
		}
		byTask[task] = j
	}
	return byTask
}

var submitted = regexp.MustCompile(`Submitted batch job (\d+)`)

// submitWait starts `sbatch --wait` in the background and returns the job
// id it prints at once and a channel that delivers its result.
func (c *cluster) submitWait(t *testing.T, dir string, extra []string, args ...string) (string, <-chan result) {
	cmd := c.s.command(c.s.ctx, dir, append(append([]string{}, c.env...), extra...), "sbatch", args...)
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	var errb strings.Builder
	cmd.Stderr = &errb
	start := time.Now()
	if err := cmd.Start(); err != nil {
		c.fatalf(t, "sbatch: %v", err)
	}
	first := make(chan string, 1)
	var rest strings.Builder
	scanDone := make(chan struct{})
	go func() {
		defer close(scanDone)
		sc := bufio.NewScanner(stdout)
		n := 0
		for sc.Scan() {
			if n == 0 {
				first <- sc.Text()
			}
			n++
			rest.WriteString(sc.Text() + "\n")
		}
		close(first)
	}()
	res := make(chan result, 1)
	go func() {
		<-scanDone
		err := cmd.Wait()
		res <- finished(cmd, err, start, rest.String(), errb.String())
	}()
	line, ok := <-first
	if !ok {
		r := <-res
		c.fatalf(t, "sbatch printed no job id: %s", r)
	}
	id, _, _ := strings.Cut(strings.TrimSpace(line), ";") // --parsable: id[;cluster]
	if m := submitted.FindStringSubmatch(line); m != nil {
		id = m[1]
	}
	if _, err := strconv.Atoi(id); err != nil {
		c.fatalf(t, "sbatch: no job id in %q", line)
	}
	return id, res
}

// testSlurm sweeps the archive with docs/scan.md's job array on a single-node
// cluster, merges with docs/scan.md's dependent job, then cancels one task mid-run
// and reruns it as docs/scan.md says.
func (s *sweep) testSlurm(t *testing.T) {
	c := s.startCluster(t)

	script := s.docBlock(t, "slurm script")
	submit := commands(s.docBlock(t, "slurm submit"))
	rerun := commands(s.docBlock(t, "slurm rerun"))
	if !strings.Contains(script, " /archive\n") {
		t.Fatalf("docs/scan.md's job-array script does not scan /archive:\n%s", script)
	}
	script = strings.Replace(script, " /archive\n", " "+s.arch+"\n", 1)
	arraySubmit := regexp.MustCompile(`^jobid=\$\(sbatch (.*)\)$`)
	if len(submit) != 2 || !arraySubmit.MatchString(submit[0]) || !strings.Contains(submit[1], "$jobid") {
		t.Fatalf("docs/scan.md's submit block is not `jobid=$(sbatch ...)` then the dependent merge:\n%q", submit)
	}
	// The array as the task asks: 1-4, and --wait, on docs/scan.md's command.
	arrayArgs := append([]string{"--array=1-" + strconv.Itoa(slurmShards), "--wait"},
		strings.Fields(arraySubmit.FindStringSubmatch(submit[0])[1])...)
	mergeLine := submit[1]
	rerunForm := regexp.MustCompile(`^SHARDS=(\d+) sbatch --array=(\d+) (\S+)$`)
	if len(rerun) != 1 || !rerunForm.MatchString(rerun[0]) {
		t.Fatalf("docs/scan.md's rerun block is not `SHARDS=N sbatch --array=I SCRIPT`: %q", rerun)
	}
	scriptName := arrayArgs[len(arrayArgs)-1]
	if rerunForm.FindStringSubmatch(rerun[0])[3] != scriptName {
		t.Fatalf("docs/scan.md's rerun submits %q, the sweep %q", rerun[0], scriptName)
	}

	want := s.wantShards(slurmShards)
	brokenShard := shardOf(brokenRel, slurmShards)
	longShard := shardOf(longRel, slurmShards)
	if len(want[longShard]) < 2 {
		t.Fatalf("shard %d/%d holds only %v: no finished bag to skip after cancelling it", longShard, slurmShards, want[longShard])
	}
	wantExit := func(task int) string {
		if task == brokenShard {
			return "3:0" // a bag could not be analysed
		}
		return "0:0"
	}

	// newRun writes docs/scan.md's script into a fresh submission directory.
	newRun := func(name string) string {
		dir := filepath.Join(s.dir, name)
		if err := os.MkdirAll(dir, 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, scriptName), []byte(script), 0o755); err != nil {
			t.Fatal(err)
		}
		return dir
	}
	// submitMerge runs docs/scan.md's dependent merge line for jobid and returns
	// the merge job's id.
	submitMerge := func(dir, jobid string) string {
		t.Helper()
		r := s.bash(dir, append(append([]string{}, c.env...), "jobid="+jobid), mergeLine)
		m := submitted.FindStringSubmatch(r.stdout)
		if r.code != 0 || m == nil {
			c.fatalf(t, "merge submission: %s", r)
		}
		return m[1]
	}
	// checkMerge waits for the merge job and compares its output with the
	// one-process scan.
	checkMerge := func(dir, id, jobid string, after map[string]job) {
		t.Helper()
		j := c.waitJobs(t, id, 1, 3*time.Minute)[""]
		log, _ := os.ReadFile(filepath.Join(dir, "slurm-"+id+".out"))
		// merge exits 3: the broken bag's error row is in the index.
		if j["JobState"] != "FAILED" || j["ExitCode"] != "3:0" || !strings.Contains(string(log), fmt.Sprintf("bagclock merge: %d inputs, %d bags:", slurmShards, len(s.rows))) {
			c.fatalf(t, "merge job %s: state %s, exit %s, want FAILED 3:0 and a summary of %d bags; its output:\n%s", id, j["JobState"], j["ExitCode"], len(s.rows), log)
		}
		for task, tj := range after {
			if j["StartTime"] < tj["EndTime"] {
				t.Errorf("merge job started %s, before task %s of job %s ended (%s): --dependency=afterany not honoured", j["StartTime"], task, jobid, tj["EndTime"])
			}
		}
		s.sameOutput(t, filepath.Join(dir, "results", "all"))
		if r := readRows(t, filepath.Join(dir, "results", "all"))[brokenRel]; r.Status != archive.StatusError || r.Error == "" {
			t.Errorf("merged index: the broken bag is not an error row: %+v", r)
		}
	}
	// sbatch --wait polls slurmctld at growing intervals (up to 32 s), so
	// the test follows the jobs with scontrol and collects the exit codes
	// of the waiting sbatch commands at the end.
	type waiting struct {
		what string
		want int
		res  <-chan result
	}
	var waits []waiting
	defer func() {
		for _, w := range waits {
			select {
			case r := <-w.res:
				// sbatch --wait exits with the highest exit code of the
				// job's tasks (1 for a task ended by a signal).
				if r.code != w.want {
					t.Errorf("%s: exit %d, want %d: %s", w.what, r.code, w.want, r)
				}
			case <-s.ctx.Done():
				t.Errorf("%s: sbatch --wait did not return: %v", w.what, s.ctx.Err())
			}
		}
	}()

	// 1. The whole array and, at once, the merge that waits for it.
	run1 := newRun("slurm-run1")
	start := time.Now()
	id, waited := c.submitWait(t, run1, nil, arrayArgs...)
	waits = append(waits, waiting{"sbatch --wait of the array", 3, waited}) // the task with the broken bag exits 3
	mergeID := submitMerge(run1, id)
	tasks := c.waitJobs(t, id, slurmShards, 10*time.Minute)
	sweepT := time.Since(start)
	for k := 1; k <= slurmShards; k++ {
		task := strconv.Itoa(k)
		j, ok := tasks[task]
		if !ok {
			c.fatalf(t, "job %s has no record of task %s: %v", id, task, tasks)
		}
		state := "COMPLETED"
		if wantExit(k) != "0:0" {
			state = "FAILED"
		}
		log, _ := os.ReadFile(filepath.Join(run1, "bagclock-scan-"+task+".log"))
		if j["JobState"] != state || j["ExitCode"] != wantExit(k) {
			c.fatalf(t, "task %s: %s exit %s, want %s exit %s; its log:\n%s", task, j["JobState"], j["ExitCode"], state, wantExit(k), log)
		}
		summary := fmt.Sprintf("bagclock scan: %d bags (%d analysed, 0 unchanged)", len(want[k]), len(want[k]))
		if !strings.Contains(string(log), summary) {
			t.Errorf("task %s log lacks %q:\n%s", task, summary, log)
		}
		if got := sortedKeys(readRows(t, filepath.Join(run1, "results", "shard-"+task))); strings.Join(got, " ") != strings.Join(want[k], " ") {
			t.Errorf("shard %s/%d scanned %v, want %v", task, slurmShards, got, want[k])
		}
	}
	t.Logf("Slurm array of %d tasks (one at a time: 2 CPUs each on a %d-CPU node) over %d bags: %s from submission to the last task's end; one-process scan: %s",
		slurmShards, runtime.NumCPU(), len(s.rows), sweepT.Round(100*time.Millisecond), s.singleT.Round(100*time.Millisecond))
	checkMerge(run1, mergeID, id, tasks)

	// 2. Cancel the task with the long bag while that bag is analysed and
	// others of its shard are done; rerun it alone as docs/scan.md says.
	run2 := newRun("slurm-run2")
	id, waited = c.submitWait(t, run2, nil, arrayArgs...)
	highest := 1 // the cancelled task: a signal
	for k := 1; k <= slurmShards; k++ {
		if e, _, _ := strings.Cut(wantExit(k), ":"); k != longShard && mustAtoi(e) > highest {
			highest = mustAtoi(e)
		}
	}
	waits = append(waits, waiting{"sbatch --wait of the array with a cancelled task", highest, waited})
	longTask := strconv.Itoa(longShard)
	shardOut := filepath.Join(run2, "results", "shard-"+longTask)
	if !c.waitFor(t, 5*time.Minute, func() bool {
		f, err := os.Open(filepath.Join(shardOut, "index.jsonl"))
		if err != nil {
			return false
		}
		defer f.Close()
		rows, _, _ := archive.ParseIndex(f)
		for _, r := range rows {
			if r.Status != archive.StatusError {
				return true // a bag analysed; the long one is analysed first
			}
		}
		return false
	}) {
		c.fatalf(t, "task %s analysed no bag within 5 minutes", longTask)
	}
	if r := c.run("scancel", id+"_"+longTask); r.code != 0 {
		c.fatalf(t, "scancel: %s", r)
	}
	tasks = c.waitJobs(t, id, slurmShards, 10*time.Minute)
	log, _ := os.ReadFile(filepath.Join(run2, "bagclock-scan-"+longTask+".log"))
	if st := tasks[longTask]["JobState"]; st != "CANCELLED" {
		c.fatalf(t, "task %s after scancel: %s, want CANCELLED (did it end before the cancel? the long bag is too short for this machine); its log:\n%s", longTask, st, log)
	}
	if !strings.Contains(string(log), "INTERRUPTED with") {
		t.Errorf("the cancelled scan did not report the interruption (SIGTERM):\n%s", log)
	}
	done := readRows(t, shardOut)
	if r, ok := done[longRel]; ok && r.Status != archive.StatusNotAnalysed {
		c.fatalf(t, "task %s was cancelled after it had analysed %s: not mid-run", longTask, longRel)
	}
	finished := 0
	for _, r := range done {
		if r.Status != archive.StatusError && r.Status != archive.StatusNotAnalysed {
			finished++ // error rows are always retried, not-analysed rows are the interrupted rest
		}
	}
	if finished == 0 {
		c.fatalf(t, "task %s: no finished bag in its index after the cancel", longTask)
	}
	for k := 1; k <= slurmShards; k++ {
		if task := strconv.Itoa(k); k != longShard && (tasks[task]["ExitCode"] != wantExit(k)) {
			t.Errorf("task %s: exit %s, want %s", task, tasks[task]["ExitCode"], wantExit(k))
		}
	}
	t.Logf("cancelled task %s of job %s with %d of %d bags of its shard done", longTask, id, finished, len(want[longShard]))

	// docs/scan.md's rerun, for this array: SHARDS=4, the cancelled index, and
	// docs/scan.md's merge after it.
	m := rerunForm.FindStringSubmatch(rerun[0])
	rid, waited := c.submitWait(t, run2, []string{"SHARDS=" + strconv.Itoa(slurmShards)}, "--array="+longTask, "--wait", m[3])
	code, _, _ := strings.Cut(wantExit(longShard), ":")
	waits = append(waits, waiting{"sbatch --wait of the rerun", mustAtoi(code), waited})
	mergeID = submitMerge(run2, rid)
	rj := c.waitJobs(t, rid, 1, 10*time.Minute)[longTask]
	log, _ = os.ReadFile(filepath.Join(run2, "bagclock-scan-"+longTask+".log"))
	if rj["ExitCode"] != wantExit(longShard) {
		c.fatalf(t, "rerun of task %s: exit %s, want %s; its log:\n%s", longTask, rj["ExitCode"], wantExit(longShard), log)
	}
	summary := fmt.Sprintf("bagclock scan: %d bags (%d analysed, %d unchanged)", len(want[longShard]), len(want[longShard])-finished, finished)
	if !strings.Contains(string(log), summary) {
		t.Errorf("rerun of task %s: log lacks %q (the finished bags must be skipped):\n%s", longTask, summary, log)
	}
	checkMerge(run2, mergeID, rid, map[string]job{longTask: rj})

	// 3. The same array over s3://: the archive uploaded to a Versity S3
	// Gateway, docs/scan.md's script with /archive replaced by its prefix,
	// the AWS settings in the environment sbatch passes on to the tasks.
	srv := s3test.Start(t)
	srv.PutTree(t, "archive", s.arch)
	url := srv.URL("archive")
	awsEnv := srv.Env("")
	run3 := filepath.Join(s.dir, "slurm-s3")
	if err := os.MkdirAll(run3, 0o755); err != nil {
		t.Fatal(err)
	}
	s3Script := strings.Replace(s.docBlock(t, "slurm script"), " /archive\n", " "+url+"\n", 1)
	if err := os.WriteFile(filepath.Join(run3, scriptName), []byte(s3Script), 0o755); err != nil {
		t.Fatal(err)
	}
	single := filepath.Join(run3, "single")
	one := s.run(run3, awsEnv, "bagclock", "scan", "--quiet", "--out", single, url)
	if one.code != 3 {
		t.Fatalf("one-process scan of %s: exit %d, want 3: %s", url, one.code, one)
	}
	sameRowsAs(t, s.rows, readRows(t, single), s.arch, url)
	id, waited = c.submitWait(t, run3, awsEnv, arrayArgs...)
	waits = append(waits, waiting{"sbatch --wait of the array over s3://", 3, waited})
	mergeID = submitMerge(run3, id)
	tasks = c.waitJobs(t, id, slurmShards, 10*time.Minute)
	for k := 1; k <= slurmShards; k++ {
		task := strconv.Itoa(k)
		log, _ := os.ReadFile(filepath.Join(run3, "bagclock-scan-"+task+".log"))
		if tasks[task]["ExitCode"] != wantExit(k) {
			c.fatalf(t, "s3:// task %s: exit %s, want %s; its log:\n%s", task, tasks[task]["ExitCode"], wantExit(k), log)
		}
		if got := sortedKeys(readRows(t, filepath.Join(run3, "results", "shard-"+task))); strings.Join(got, " ") != strings.Join(want[k], " ") {
			t.Errorf("s3:// shard %s/%d scanned %v, want %v", task, slurmShards, got, want[k])
		}
	}
	c.waitJobs(t, mergeID, 1, 3*time.Minute)
	sameOutputAs(t, single, filepath.Join(run3, "results", "all"))
	t.Logf("Slurm array over %s: %d tasks, merged index equal to the one-process scan of the prefix and, row for row, to the local scan", url, slurmShards)
}

// sameRowsAs compares a scan of the archive in an object store with the
// local scan, row for row: the local root written as the URL, and the
// fields that say where and when a bag is (path, mtime, fingerprint,
// report names) aside.
func sameRowsAs(t *testing.T, local, remote map[string]archive.Row, root, url string) {
	t.Helper()
	norm := func(r archive.Row) string {
		r.Path, r.ModTimeNS, r.Fingerprint, r.ReportHTML, r.ReportJSON = "", 0, "", "", ""
		b, _ := json.Marshal(r)
		return strings.ReplaceAll(string(b), root, url)
	}
	if len(local) != len(remote) {
		t.Errorf("local scan %d rows, s3:// scan %d", len(local), len(remote))
	}
	for rel, l := range local {
		if a, b := norm(l), norm(remote[rel]); a != b {
			t.Errorf("%s: rows differ\nlocal  %s\ns3://  %s", rel, a, b)
		}
	}
}

func mustAtoi(s string) int {
	n, err := strconv.Atoi(s)
	if err != nil {
		panic(err)
	}
	return n
}

// freePort returns a TCP port nothing listens on now.
func freePort(t *testing.T) int {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port
}

// memTotalMiB reads MemTotal from /proc/meminfo.
func memTotalMiB(t *testing.T) int {
	data, err := os.ReadFile("/proc/meminfo")
	if err != nil {
		t.Fatal(err)
	}
	for _, line := range strings.Split(string(data), "\n") {
		if f := strings.Fields(line); len(f) >= 2 && f[0] == "MemTotal:" {
			kb, _ := strconv.Atoi(f[1])
			return kb / 1024
		}
	}
	t.Fatal("no MemTotal in /proc/meminfo")
	return 0
}
