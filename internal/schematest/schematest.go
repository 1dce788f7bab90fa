// Package schematest validates bagclock's JSON outputs against the JSON
// Schemas in docs/schema (draft 2020-12) with an independent validator,
// santhosh-tekuri/jsonschema, for tests.
package schematest

import (
	"bufio"
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/bagclock/bagclock/internal/testenv"
)

// The schema files, below the repository root.
const (
	Report   = "docs/schema/report.schema.json"
	IndexRow = "docs/schema/index-row.schema.json"
)

var (
	mu       sync.Mutex
	compiled = map[string]*jsonschema.Schema{}
)

// Schema compiles the schema file rel (Report or IndexRow), once per test
// binary.
func Schema(tb testing.TB, rel string) *jsonschema.Schema {
	tb.Helper()
	mu.Lock()
	defer mu.Unlock()
	if s, ok := compiled[rel]; ok {
		return s
	}
	s, err := Compile(filepath.Join(testenv.RepoRoot(tb), rel))
	if err != nil {
		tb.Fatalf("schematest: %v", err)
	}
	compiled[rel] = s
	return s
}

// Compile reads and compiles one schema file as draft 2020-12, whatever
// its $schema says, with the format assertions off (none is used).
func Compile(path string) (*jsonschema.Schema, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	doc, err := jsonschema.UnmarshalJSON(f)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	c := jsonschema.NewCompiler()
	c.DefaultDraft(jsonschema.Draft2020)
	url := "file://" + filepath.ToSlash(path)
	if err := c.AddResource(url, doc); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	s, err := c.Compile(url)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return s, nil
}

// Validate parses data as one JSON value (numbers kept exact) and
// validates it against the schema; the error lists every violation with
// its JSON pointer.
func Validate(s *jsonschema.Schema, data []byte) error {
	v, err := jsonschema.UnmarshalJSON(bytes.NewReader(data))
	if err != nil {
		return fmt.Errorf("not JSON: %w", err)
	}
	return s.Validate(v)
}

// ValidateLines validates every non-empty line of data (JSON Lines) and
// returns how many it validated and the first error, naming its line.
func ValidateLines(s *jsonschema.Schema, data []byte) (int, error) {
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(make([]byte, 1<<20), 64<<20)
	n, line := 0, 0
	for sc.Scan() {
		line++
		if len(bytes.TrimSpace(sc.Bytes())) == 0 {
			continue
		}
		if err := Validate(s, sc.Bytes()); err != nil {
			return n, fmt.Errorf("line %d: %w", line, err)
		}
		n++
	}
	return n, sc.Err()
}
