// Command iorun runs a command and reports, in one line, what the
// benchmark scripts need from that one run: wall time, peak RSS, and the
// bytes the command read (rchar: asked of read syscalls, page cache or
// not; read_bytes: fetched from the storage device), taken from
// /proc/PID/io after the command has ended but before it is reaped.
//
//	iorun -o REPORT CMD ARGS...
//
// REPORT gets "wall_s=S maxrss_kb=K rchar=R read_bytes=B status=N
// cpu_s=C minflt=F" (C: user plus system time; F: minor page faults, which
// cost 11–17 µs each on the benchmark VM, docs/performance.md); wall and
// CPU to 0.1 ms, since a process start is about 15 ms.
// Linux only.
package main

import (
	"fmt"
	"os"
	"os/exec"
	"strings"
	"syscall"
	"time"
	"unsafe"
)

func main() {
	if len(os.Args) < 4 || os.Args[1] != "-o" {
		fmt.Fprintln(os.Stderr, "usage: iorun -o REPORT CMD ARGS...")
		os.Exit(2)
	}
	report := os.Args[2]
	cmd := exec.Command(os.Args[3], os.Args[4:]...)
	cmd.Stdin, cmd.Stdout, cmd.Stderr = os.Stdin, os.Stdout, os.Stderr
	start := time.Now()
	if err := cmd.Start(); err != nil {
		fmt.Fprintln(os.Stderr, "iorun:", err)
		os.Exit(1)
	}
	// waitid(P_PID, pid, WEXITED|WNOWAIT): the child stays a zombie, so
	// its /proc entry (and its I/O counters) can still be read.
	const pPID, wExited, wNoWait = 1, 0x4, 0x1000000
	var info [128]byte
	for {
		_, _, e := syscall.Syscall6(syscall.SYS_WAITID, pPID, uintptr(cmd.Process.Pid), uintptr(unsafe.Pointer(&info[0])), wExited|wNoWait, 0, 0)
		if e == syscall.EINTR {
			continue
		}
		if e != 0 {
			fmt.Fprintln(os.Stderr, "iorun: waitid:", e)
			os.Exit(1)
		}
		break
	}
	wall := time.Since(start)
	io, err := os.ReadFile(fmt.Sprintf("/proc/%d/io", cmd.Process.Pid))
	if err != nil {
		fmt.Fprintln(os.Stderr, "iorun:", err)
	}
	field := func(name string) string {
		for _, l := range strings.Split(string(io), "\n") {
			if v, ok := strings.CutPrefix(l, name+": "); ok {
				return v
			}
		}
		return "-1"
	}
	cmd.Wait()
	var maxrss, minflt int64
	if ru, ok := cmd.ProcessState.SysUsage().(*syscall.Rusage); ok {
		maxrss, minflt = ru.Maxrss, ru.Minflt
	}
	cpu := cmd.ProcessState.UserTime() + cmd.ProcessState.SystemTime()
	line := fmt.Sprintf("wall_s=%.4f maxrss_kb=%d rchar=%s read_bytes=%s status=%d cpu_s=%.4f minflt=%d\n",
		wall.Seconds(), maxrss, field("rchar"), field("read_bytes"), cmd.ProcessState.ExitCode(), cpu.Seconds(), minflt)
	if err := os.WriteFile(report, []byte(line), 0o644); err != nil {
		fmt.Fprintln(os.Stderr, "iorun:", err)
		os.Exit(1)
	}
	os.Exit(cmd.ProcessState.ExitCode())
}
