package render

import (
	"html"
	"regexp"
	"strings"
	"testing"
)

func TestSplitCommand(t *testing.T) {
	for _, tc := range []struct{ in, cmd, note string }{
		{"ros2 param get /lidar use_sim_time", "ros2 param get /lidar use_sim_time", ""},
		{"ros2 run tf2_ros tf2_echo odom laser  (tf2_echo prints sec.nanosec unpadded)", "ros2 run tf2_ros tf2_echo odom laser", "tf2_echo prints sec.nanosec unpadded"},
		{"chronyc tracking  # on both machines", "chronyc tracking", "on both machines"},
		{"# look at the recording machine's clock", "", "look at the recording machine's clock"},
		{"  ros2 topic echo /scan --once  ", "ros2 topic echo /scan --once", ""},
	} {
		cmd, note := splitCommand(tc.in)
		if cmd != tc.cmd || note != tc.note {
			t.Errorf("splitCommand(%q) = %q, %q; want %q, %q", tc.in, cmd, note, tc.cmd, tc.note)
		}
	}
}

// TestConfirmBlock: the confirm block holds one shell line per command,
// each with a copy button carrying exactly that line; remarks the
// analysis appends to a command go to the notes beside the block.
func TestConfirmBlock(t *testing.T) {
	r := sampleReport()
	remark := "tf2_echo prints the stamp as sec.nanosec without zero-padding"
	r.Verdict.Commands = []string{
		"ros2 param get /lidar_driver use_sim_time",
		"ros2 run tf2_ros tf2_echo odom base_link  (" + remark + ")",
		"chronyc tracking  # compare both machines",
	}
	out := string(renderHTML(t, r))
	block := regexp.MustCompile(`(?s)<div class="cmds" id="cmds">(.*?)</div>\s*<div class="notes">(.*?)</div></div>`).FindStringSubmatch(out)
	if block == nil {
		t.Fatal("no confirm block with notes beside it")
	}
	lines := regexp.MustCompile(`<div class="cmd"><code>([^<]*)</code><button type="button" class="cp noprint" data-cmd="([^"]*)"`).FindAllStringSubmatch(block[1], -1)
	want := []string{"ros2 param get /lidar_driver use_sim_time", "ros2 run tf2_ros tf2_echo odom base_link", "chronyc tracking"}
	if len(lines) != len(want) {
		t.Fatalf("%d command lines with a copy button, want %d:\n%s", len(lines), len(want), block[1])
	}
	for i, l := range lines {
		code, data := html.UnescapeString(l[1]), html.UnescapeString(l[2])
		if code != want[i] || data != want[i] {
			t.Errorf("line %d: shown %q, copied %q; want %q", i, code, data, want[i])
		}
	}
	notes := html.UnescapeString(block[2])
	for _, n := range []string{remark, "compare both machines"} {
		if !strings.Contains(notes, n) {
			t.Errorf("notes lack %q:\n%s", n, notes)
		}
	}
}
