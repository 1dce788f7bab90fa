package render

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"sort"
	"strings"
	"testing"

	"github.com/bagclock/bagclock/analysis"
	"github.com/bagclock/bagclock/analysis/archive"
	"github.com/bagclock/bagclock/internal/schematest"
)

// The JSON outputs' schemas live in docs/schema; these tests keep them,
// the Go types and what render writes in step. Validating every shared
// bag's report and index row is TestSchemaValidatesScanOutputs in
// cmd/bagclock.

// loadSchema reads a schema file as plain JSON, for looking inside it.
func loadSchema(t *testing.T, rel string) map[string]any {
	t.Helper()
	var m map[string]any
	if err := json.Unmarshal(mustReadFile(t, filepath.Join("..", filepath.FromSlash(rel))), &m); err != nil {
		t.Fatalf("%s: %v", rel, err)
	}
	return m
}

func mustReadFile(t *testing.T, p string) []byte {
	t.Helper()
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// TestSchemaVersion: both schemas are draft 2020-12, and their $id and
// title carry JSONSchemaVersion, which the report schema pins as the
// const of schema_version.
func TestSchemaVersion(t *testing.T) {
	for _, rel := range []string{schematest.Report, schematest.IndexRow} {
		s := loadSchema(t, rel)
		if s["$schema"] != "https://json-schema.org/draft/2020-12/schema" {
			t.Errorf("%s: $schema %v, want draft 2020-12", rel, s["$schema"])
		}
		id, _ := s["$id"].(string)
		base := strings.TrimSuffix(filepath.Base(rel), ".schema.json")
		if want := fmt.Sprintf("/schema/%d/%s.schema.json", JSONSchemaVersion, base); !strings.HasSuffix(id, want) {
			t.Errorf("%s: $id %q does not end in %q (the schema version is in the $id)", rel, id, want)
		}
		if title, _ := s["title"].(string); !strings.HasSuffix(title, fmt.Sprintf("schema_version %d", JSONSchemaVersion)) {
			t.Errorf("%s: title %q does not name schema_version %d", rel, title, JSONSchemaVersion)
		}
	}
	sv := loadSchema(t, schematest.Report)["properties"].(map[string]any)["schema_version"].(map[string]any)
	if c, ok := sv["const"].(float64); !ok || int(c) != JSONSchemaVersion {
		t.Errorf("report schema: schema_version const %v, want %d", sv["const"], JSONSchemaVersion)
	}
}

// TestSchemaValidatesGoldens validates render's own goldens (the sample
// report with every optional section, the index fixture with an error
// row) and analysis's report goldens written through JSONWriter.
func TestSchemaValidatesGoldens(t *testing.T) {
	rep := schematest.Schema(t, schematest.Report)
	idx := schematest.Schema(t, schematest.IndexRow)
	if err := schematest.Validate(rep, renderJSON(t, sampleRows(), sampleReport())); err != nil {
		t.Errorf("sample report: %v", err)
	}
	if err := schematest.Validate(rep, mustReadFile(t, filepath.Join("testdata", "report.json"))); err != nil {
		t.Errorf("testdata/report.json: %v", err)
	}
	var b bytes.Buffer
	if err := IndexJSONL(&b, indexFixture()); err != nil {
		t.Fatal(err)
	}
	if n, err := schematest.ValidateLines(idx, b.Bytes()); err != nil || n != len(indexFixture()) {
		t.Errorf("index fixture: %d rows valid, %v", n, err)
	}
	goldens, _ := filepath.Glob(filepath.Join("..", "analysis", "testdata", "*.report.json"))
	if len(goldens) == 0 {
		t.Fatal("no analysis/testdata/*.report.json")
	}
	for _, g := range goldens {
		var r analysis.Report
		if err := json.Unmarshal(mustReadFile(t, g), &r); err != nil {
			t.Fatalf("%s: %v", g, err)
		}
		if err := schematest.Validate(rep, renderJSON(t, nil, &r)); err != nil {
			t.Errorf("%s through JSONWriter: %v", g, err)
		}
	}
}

// TestSchemaRejectsRenamedField: a field renamed anywhere (top level,
// nested object, list element, scan row, index row) or a value of the
// wrong type fails validation, and the error names the place.
func TestSchemaRejectsRenamedField(t *testing.T) {
	// The demo bag's analysis (findings, ages, ...) with the sample rows.
	var demo analysis.Report
	if err := json.Unmarshal(mustReadFile(t, filepath.Join("..", "analysis", "testdata", "demo.report.json")), &demo); err != nil {
		t.Fatal(err)
	}
	report := renderJSON(t, sampleRows(), &demo)
	var b bytes.Buffer
	if err := IndexJSONL(&b, indexFixture()[:1]); err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		name, schema string
		doc          []byte
		edit         func(m map[string]any)
		want         string // in the error
	}{
		{"top-level key", schematest.Report, report, func(m map[string]any) { rename(m, "findings", "finding") }, "finding"},
		{"bag field", schematest.Report, report, func(m map[string]any) { rename(obj(m, "bag"), "storage", "storage_id") }, "/bag"},
		{"scan row field", schematest.Report, report, func(m map[string]any) { rename(elem(m, "scans"), "diff_s", "diff_sec") }, "/scans/0"},
		{"finding field", schematest.Report, report, func(m map[string]any) { rename(elem(m, "findings"), "severity", "level") }, "/findings/0"},
		{"nested finding field", schematest.Report, report, func(m map[string]any) { rename(obj(elem(m, "findings"), "confidence"), "basis", "why") }, "/findings/0/confidence"},
		{"ages field", schematest.Report, report, func(m map[string]any) { rename(elem(m, "ages"), "median_s", "median") }, "/ages/0"},
		{"missing required", schematest.Report, report, func(m map[string]any) { delete(obj(m, "summary"), "verdict") }, "/summary"},
		{"wrong type", schematest.Report, report, func(m map[string]any) { obj(m, "counts")["stalls"] = "3" }, "/counts/stalls"},
		{"unknown class", schematest.Report, report, func(m map[string]any) { elem(m, "scans")["class"] = "same_clocks" }, "/scans/0/class"},
		{"old schema_version", schematest.Report, report, func(m map[string]any) { m["schema_version"] = JSONSchemaVersion - 1 }, "/schema_version"},
		{"index row field", schematest.IndexRow, b.Bytes(), func(m map[string]any) { rename(m, "verdict", "headline") }, "headline"},
		{"index row status", schematest.IndexRow, b.Bytes(), func(m map[string]any) { m["status"] = "fine" }, "/status"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			s := schematest.Schema(t, c.schema)
			if err := schematest.Validate(s, c.doc); err != nil {
				t.Fatalf("unedited document invalid: %v", err)
			}
			d := json.NewDecoder(bytes.NewReader(c.doc))
			d.UseNumber()
			var m map[string]any
			if err := d.Decode(&m); err != nil {
				t.Fatal(err)
			}
			c.edit(m)
			edited, err := json.Marshal(m)
			if err != nil {
				t.Fatal(err)
			}
			err = schematest.Validate(s, edited)
			if err == nil {
				t.Fatal("edited document validates")
			}
			if !strings.Contains(err.Error(), c.want) {
				t.Errorf("error does not name %q:\n%v", c.want, err)
			}
		})
	}
}

func obj(m map[string]any, key string) map[string]any { return m[key].(map[string]any) }
func elem(m map[string]any, key string) map[string]any {
	return m[key].([]any)[0].(map[string]any)
}
func rename(m map[string]any, from, to string) {
	v, ok := m[from]
	if !ok {
		panic("no key " + from)
	}
	delete(m, from)
	m[to] = v
}

// TestSchemaMatchesGoTypes walks analysis.Report and archive.Row with the
// schemas: every JSON field of a Go type is a property of its schema
// object and the reverse, required exactly when the field has no
// omitempty, and every object closed (additionalProperties false). So a
// field renamed, added or dropped in Go fails here even when no report
// in the tests has it. The scan rows are written by hand
// (appendJSONScan): their keys are compared with what it writes.
func TestSchemaMatchesGoTypes(t *testing.T) {
	rs := loadSchema(t, schematest.Report)
	w := schemaWalker{t: t, defs: rs["$defs"].(map[string]any)}
	w.object("report", reflect.TypeOf(analysis.Report{}), rs, "schema_version", "scans")
	var row map[string]any
	if err := json.Unmarshal(appendJSONScan(nil, &sampleRows()[0]), &row); err != nil {
		t.Fatal(err)
	}
	scan := w.resolve(rs["properties"].(map[string]any)["scans"].(map[string]any)["items"].(map[string]any))
	w.sameKeys("scans[]", keys(row), keys(scan["properties"].(map[string]any)), "properties")
	w.sameKeys("scans[]", keys(row), strs(scan["required"]), "required")

	is := loadSchema(t, schematest.IndexRow)
	w = schemaWalker{t: t, defs: is["$defs"].(map[string]any)}
	w.object("index row", reflect.TypeOf(archive.Row{}), is)
}

type schemaWalker struct {
	t    *testing.T
	defs map[string]any
}

func (w schemaWalker) resolve(s map[string]any) map[string]any {
	for {
		ref, ok := s["$ref"].(string)
		if !ok {
			return s
		}
		d, ok := w.defs[strings.TrimPrefix(ref, "#/$defs/")].(map[string]any)
		if !ok {
			w.t.Fatalf("unresolved $ref %s", ref)
		}
		s = d
	}
}

// object checks struct type t against schema object s; extra names
// properties the writer adds beyond t's fields (required).
func (w schemaWalker) object(path string, t reflect.Type, s map[string]any, extra ...string) {
	s = w.resolve(s)
	if s["additionalProperties"] != false {
		w.t.Errorf("%s: schema object is not closed (additionalProperties: false)", path)
	}
	props, _ := s["properties"].(map[string]any)
	names, required := append([]string{}, extra...), append([]string{}, extra...)
	for i := 0; i < t.NumField(); i++ {
		f := t.Field(i)
		name, opts, _ := strings.Cut(f.Tag.Get("json"), ",")
		if !f.IsExported() || name == "-" {
			continue
		}
		names = append(names, name)
		if !strings.Contains(","+opts+",", ",omitempty,") {
			required = append(required, name)
		}
		if p, ok := props[name].(map[string]any); ok {
			w.value(path+"."+name, f.Type, p)
		}
	}
	w.sameKeys(path, names, keys(props), "properties")
	w.sameKeys(path, required, strs(s["required"]), "required")
}

// value descends into the struct types inside t (pointers, slices, maps).
func (w schemaWalker) value(path string, t reflect.Type, s map[string]any) {
	s = w.resolve(s)
	switch t.Kind() {
	case reflect.Pointer:
		w.value(path, t.Elem(), s)
	case reflect.Slice:
		if it, ok := s["items"].(map[string]any); ok {
			w.value(path+"[]", t.Elem(), it)
		} else if t.Elem().Kind() == reflect.Struct {
			w.t.Errorf("%s: array of objects without items", path)
		}
	case reflect.Map:
		if ap, ok := s["additionalProperties"].(map[string]any); ok {
			w.value(path+"{}", t.Elem(), ap)
		}
	case reflect.Struct:
		if _, custom := reflect.PointerTo(t).MethodByName("MarshalJSON"); custom {
			return // finding.Number's own encoding: checked by the data
		}
		if _, custom := t.MethodByName("MarshalJSON"); custom {
			return
		}
		w.object(path, t, s)
	}
}

func (w schemaWalker) sameKeys(path string, goNames, schemaNames []string, what string) {
	sort.Strings(goNames)
	sort.Strings(schemaNames)
	if !reflect.DeepEqual(goNames, schemaNames) {
		w.t.Errorf("%s: %s differ:\n  Go:     %v\n  schema: %v\n  only in Go: %v, only in the schema: %v (update docs/schema and render/SCHEMA.md)",
			path, what, goNames, schemaNames, minus(goNames, schemaNames), minus(schemaNames, goNames))
	}
}

func keys(m map[string]any) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	return out
}

func strs(v any) []string {
	var out []string
	l, _ := v.([]any)
	for _, x := range l {
		out = append(out, x.(string))
	}
	return out
}

func minus(a, b []string) []string {
	in := map[string]bool{}
	for _, x := range b {
		in[x] = true
	}
	var out []string
	for _, x := range a {
		if !in[x] {
			out = append(out, x)
		}
	}
	return out
}

// TestSchemaDoc checks render/SCHEMA.md against the report schema: the key
// list names exactly the schema's top-level keys; every top-level key has
// its section ("## key" or a row of "The other keys") and every property
// inside it, at any depth, is named there in backticks; and each key in
// the first column of a section's table is a property of that key.
func TestSchemaDoc(t *testing.T) {
	doc := string(mustReadFile(t, "SCHEMA.md"))
	rs := loadSchema(t, schematest.Report)
	w := schemaWalker{t: t, defs: rs["$defs"].(map[string]any)}
	top := rs["properties"].(map[string]any)

	block := doc[strings.Index(doc, "```\n{")+4:]
	block = block[:strings.Index(block, "```")]
	var listed []string
	for _, m := range regexp.MustCompile(`"([a-z_]+)":`).FindAllStringSubmatch(block, -1) {
		listed = append(listed, m[1])
	}
	w.sameKeys("SCHEMA.md key list", listed, keys(top), "top-level keys")

	sections := map[string]string{} // top-level key → its text
	for _, part := range strings.Split(doc, "\n## ")[1:] {
		head, body, _ := strings.Cut(part, "\n")
		name := strings.TrimSuffix(strings.TrimSuffix(strings.Fields(head)[0], ":"), "[]")
		if _, ok := top[name]; ok {
			sections[name] = body
		}
		if head == "The other keys" {
			for _, line := range strings.Split(body, "\n") {
				cells := strings.Split(line, "|")
				if len(cells) > 2 {
					if k := strings.Trim(strings.TrimSpace(cells[1]), "`"); top[k] != nil {
						sections[k] = line
					}
				}
			}
		}
	}
	codeSpan := regexp.MustCompile("`([^`]+)`")
	ident := regexp.MustCompile(`[a-z][a-z0-9_]*`)
	for _, k := range keys(top) {
		if k == "schema_version" {
			continue
		}
		text, ok := sections[k]
		if !ok {
			t.Errorf("SCHEMA.md: no section or row of The other keys for %q", k)
			continue
		}
		named := map[string]bool{}
		for _, m := range codeSpan.FindAllStringSubmatch(text, -1) {
			for _, id := range ident.FindAllString(m[1], -1) {
				named[id] = true
			}
		}
		props := map[string]bool{}
		w.properties(top[k].(map[string]any), props)
		for p := range props {
			if !named[p] {
				t.Errorf("SCHEMA.md, %s: property %q of the schema is not named", k, p)
			}
		}
		// The first column of the section's own table (key | type | meaning).
		for _, line := range strings.Split(text, "\n") {
			cells := strings.Split(line, "|")
			if len(cells) < 4 || !strings.Contains(cells[1], "`") || sections[k] == line {
				continue
			}
			for _, m := range codeSpan.FindAllStringSubmatch(cells[1], -1) {
				if !props[m[1]] {
					t.Errorf("SCHEMA.md, %s: table key %q is not a property in the schema", k, m[1])
				}
			}
		}
	}
}

// properties collects the property names inside s, at any depth.
func (w schemaWalker) properties(s map[string]any, into map[string]bool) {
	s = w.resolve(s)
	if p, ok := s["properties"].(map[string]any); ok {
		for name, sub := range p {
			into[name] = true
			w.properties(sub.(map[string]any), into)
		}
	}
	for _, k := range []string{"items", "additionalProperties"} {
		if sub, ok := s[k].(map[string]any); ok {
			w.properties(sub, into)
		}
	}
	for _, k := range []string{"oneOf", "anyOf"} {
		l, _ := s[k].([]any)
		for _, sub := range l {
			w.properties(sub.(map[string]any), into)
		}
	}
}
