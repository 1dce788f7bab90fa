package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestRun(t *testing.T) {
	tmp := t.TempDir()
	cases := []struct {
		name     string
		args     []string
		code     int
		stdout   string // substring
		wantFile string // relative to tmp
	}{
		{"list", []string{"--list"}, 0, "laser_system_tf_sim  laser system tf sim", ""},
		{"list says what a sync case models", []string{"--list"}, 0, "; camera: the depth driver on system time, colour on /clock", ""},
		{"case mcap", []string{"--case", "clock_loop", "--sample", "-o", filepath.Join(tmp, "loop")}, 0, "3 backward jumps", "loop/loop_0.mcap"},
		{"case db3 zstd", []string{"--case", "both_sim", "--sample", "--storage", "sqlite3", "--compression", "zstd", "-o", filepath.Join(tmp, "db")}, 0, "same_clock", "db/db_0.db3.zstd"},
		{"crash", []string{"--case", "both_sim", "--sample", "--crash", "-o", filepath.Join(tmp, "crash")}, 0, "", "crash/crash_0.mcap"},
		{"all", []string{"--all", "--sample", "-o", filepath.Join(tmp, "all")}, 0, "demo", "all/sqlite3/skew_2_5s/skew_2_5s_0.db3"},
		{"robots", []string{"--robots", "both_sim,laser_system_tf_sim", "--sensors", "--sample", "--storage", "sqlite3", "-o", filepath.Join(tmp, "robots")}, 0, "/robot2 laser system tf sim, 32 scans, class laser_on_system_clock", "robots/robots_0.db3"},
		{"robots: one case", []string{"--robots", "both_sim", "-o", filepath.Join(tmp, "r1")}, 2, "", ""},
		{"robots: two simulators", []string{"--robots", "both_sim,sim_reset", "-o", filepath.Join(tmp, "r2")}, 1, "", ""},
		{"robots: missing -o", []string{"--robots", "both_sim,both_system"}, 2, "", ""},
		{"noise", []string{"--case", "both_system", "--sample", "--noise-seed", "3", "--robot-offset", "40ms", "--republish-behind", "1", "--stall", "1s:300ms", "-o", filepath.Join(tmp, "noise")}, 0, "noise", "noise/noise_0.mcap"},
		{"noise: bad stall", []string{"--case", "both_system", "--stall", "1s", "-o", filepath.Join(tmp, "n2")}, 2, "", ""},
		{"noise: lossy stall", []string{"--case", "both_system", "--stall", "1s:2s:150ms", "-o", filepath.Join(tmp, "n5")}, 0, "only its last 150ms delivered", "n5/n5_0.mcap"},
		{"noise: kept tail longer than the stall", []string{"--case", "both_system", "--stall", "1s:100ms:150ms", "-o", filepath.Join(tmp, "n6")}, 1, "", ""},
		{"noise: invalid", []string{"--case", "both_system", "--loss", "2", "-o", filepath.Join(tmp, "n3")}, 1, "", ""},
		{"unknown case", []string{"--case", "nope", "-o", filepath.Join(tmp, "x")}, 2, "", ""},
		{"two modes", []string{"--all", "--list"}, 2, "", ""},
		{"no mode", nil, 2, "", ""},
		{"missing -o", []string{"--case", "both_sim"}, 2, "", ""},
		{"bad storage", []string{"--case", "both_sim", "--storage", "bag1", "-o", filepath.Join(tmp, "y")}, 1, "", ""},
		{"help", []string{"--help"}, 0, "", ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var out, errb bytes.Buffer
			if code := run(c.args, &out, &errb); code != c.code {
				t.Fatalf("exit %d, want %d; stderr: %s", code, c.code, errb.String())
			}
			if !strings.Contains(out.String(), c.stdout) {
				t.Errorf("stdout lacks %q:\n%s", c.stdout, out.String())
			}
			if c.wantFile != "" {
				if _, err := os.Stat(filepath.Join(tmp, c.wantFile)); err != nil {
					t.Error(err)
				}
			}
		})
	}
	if _, err := os.Stat(filepath.Join(tmp, "crash", "metadata.yaml")); err == nil {
		t.Error("--crash wrote metadata.yaml")
	}
}
