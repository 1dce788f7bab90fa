package verdict

import (
	"os/exec"
	"strings"
	"testing"
)

// TestImports holds the seam of issue 22: the verdict reads the finished
// report, so it imports analysis and analysis's leaf packages (those that
// do not themselves import analysis, such as analysis/finding) and no
// other project package; and analysis does not import the verdict (the
// caller wires them, as cmd/bagclock does).
func TestImports(t *testing.T) {
	goTool, err := exec.LookPath("go")
	if err != nil {
		t.Skip("no go tool to list the imports")
	}
	list := func(format string, pkgs ...string) []string {
		t.Helper()
		out, err := exec.Command(goTool, append([]string{"list", "-f", format}, pkgs...)...).Output()
		if err != nil {
			t.Fatalf("go list %s: %v", pkgs, err)
		}
		return strings.Split(strings.TrimSpace(string(out)), "\n")
	}
	self := list("{{.ImportPath}}", ".")[0]
	analysis := strings.TrimSuffix(self, "/verdict")
	module := list("{{.Module.Path}}", ".")[0]

	// The subpackages of analysis that do not depend on analysis.
	leaf := map[string]bool{}
	for _, line := range list(`{{.ImportPath}}{{range .Deps}} {{.}}{{end}}`, analysis+"/...") {
		f := strings.Fields(line)
		if len(f) == 0 || f[0] == analysis || f[0] == self {
			continue
		}
		dependsOnAnalysis := false
		for _, d := range f[1:] {
			dependsOnAnalysis = dependsOnAnalysis || d == analysis
		}
		if !dependsOnAnalysis {
			leaf[f[0]] = true
		}
	}
	if !leaf[analysis+"/finding"] {
		t.Fatalf("analysis/finding is not among the leaf packages %v: the listing is wrong", leaf)
	}

	sawAnalysis := false
	for _, imp := range strings.Fields(list(`{{join .Imports " "}}`, ".")[0]) {
		switch {
		case imp == analysis:
			sawAnalysis = true
		case imp == module || strings.HasPrefix(imp, module+"/"):
			if !leaf[imp] {
				t.Errorf("%s imports %s: the verdict may import only analysis and its leaf packages", self, imp)
			}
		}
	}
	if !sawAnalysis {
		t.Errorf("%s does not import %s: the listing is wrong", self, analysis)
	}
	for _, line := range list(`{{.ImportPath}}{{range .Deps}} {{.}}{{end}}{{range .TestImports}} {{.}}{{end}}`, analysis) {
		for _, d := range strings.Fields(line)[1:] {
			if d == self {
				t.Errorf("%s depends on %s: the verdict reads the finished report, analysis does not call it", analysis, self)
			}
		}
	}
}
