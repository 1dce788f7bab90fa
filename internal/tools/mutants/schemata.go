package main

import (
	"fmt"
	"go/ast"
	"go/constant"
	"go/token"
	"go/types"
	"sort"
	"strings"
)

// srcFile is one non-test Go file of the package under test.
type srcFile struct {
	name    string // base name
	src     []byte
	ast     *ast.File
	tokFile *token.File
	imports map[string]string // import path -> name it has in this file

	out   string // the rewritten text, after rewrite
	spans []span // where each switched site's code is in out
}

type span struct {
	start, end int
	s          *site
}

// Ways a site is tested.
const (
	howSwitched  = "switched"  // in the one schemata build, chosen by BAGCLOCK_MUTANT
	howBuild     = "build"     // the token is replaced in the source and the tests rebuilt
	howNotViable = "notviable" // gremlins' mutant does not compile
)

// classify decides how each site is tested: switched at run time where the
// replacement code is sure to behave like the token swap, one build per
// mutant where the expression must stay constant (or its type cannot be
// written in the file), not viable where gremlins' mutant cannot compile.
func classify(s *site, info *types.Info, pkg *types.Package) {
	for _, p := range s.parents {
		if g, ok := p.(*ast.GenDecl); ok && g.Tok == token.CONST {
			s.how, s.reason = howBuild, "in a const declaration"
			return
		}
		if a, ok := p.(*ast.ArrayType); ok && a.Len != nil && a.Len.Pos() <= s.node.Pos() && s.node.End() <= a.Len.End() {
			s.how, s.reason = howBuild, "in an array length"
			return
		}
	}
	if untyped(s, info) {
		s.how, s.reason = howBuild, "operands of C types (cgo), which the type check cannot see"
		return
	}
	switch n := s.node.(type) {
	case *ast.IncDecStmt:
		s.how = howSwitched
		if simpleStmtPosition(s) && !sideEffectFree(n.X) {
			s.how, s.reason = howBuild, "x++ in a simple-statement position, x with side effects"
		}
		return
	case *ast.BinaryExpr:
		if s.tok == token.ADD && isString(info.TypeOf(n.X)) {
			s.how, s.reason = howNotViable, "string concatenation: '-' does not compile on strings"
			return
		}
		if s.tok == token.MUL {
			y := info.Types[n.Y]
			xt := info.Types[n.X]
			if y.Value != nil && constant.Sign(y.Value) == 0 && (xt.Value != nil || isInteger(xt.Type)) {
				s.how, s.reason = howNotViable, "x * 0 becomes a division by constant zero, which does not compile"
				return
			}
		}
	}
	e := s.node.(ast.Expr)
	tv := info.Types[e]
	if tv.Value == nil {
		s.how = howSwitched
		return
	}
	// A constant expression: switched by a closure of its final type.
	if b, ok := tv.Type.(*types.Basic); ok && b.Info()&types.IsUntyped != 0 && b.Kind() != types.UntypedBool {
		s.how, s.reason = howBuild, "untyped constant expression"
		return
	}
	if _, ok := typeName(tv.Type, s.file, pkg); !ok {
		s.how, s.reason = howBuild, "constant of a type the file cannot name"
		return
	}
	s.how = howSwitched
}

// typeName writes t as the file can name it.
func typeName(t types.Type, f *srcFile, pkg *types.Package) (string, bool) {
	if b, ok := t.(*types.Basic); ok && b.Kind() == types.UntypedBool {
		return "bool", true
	}
	ok := true
	name := types.TypeString(t, func(p *types.Package) string {
		if p == pkg {
			return ""
		}
		n, found := f.imports[p.Path()]
		if !found || n == "_" {
			ok = false
			return p.Name()
		}
		if n == "." {
			return ""
		}
		return n
	})
	return name, ok
}

func isString(t types.Type) bool {
	b, ok := t.Underlying().(*types.Basic)
	return ok && b.Info()&types.IsString != 0
}

func isInteger(t types.Type) bool {
	if t == nil {
		return false
	}
	b, ok := t.Underlying().(*types.Basic)
	return ok && b.Info()&types.IsInteger != 0
}

// simpleStmtPosition reports whether an x++ stands where only a simple
// statement may (a for loop's post statement, an if's or switch's init).
func simpleStmtPosition(s *site) bool {
	if len(s.parents) == 0 {
		return false
	}
	switch p := s.parents[len(s.parents)-1].(type) {
	case *ast.ForStmt:
		return p.Post == s.node || p.Init == s.node
	case *ast.IfStmt:
		return p.Init == s.node
	case *ast.SwitchStmt:
		return p.Init == s.node
	case *ast.TypeSwitchStmt:
		return p.Init == s.node
	}
	return false
}

// sideEffectFree reports whether evaluating e twice is the same as once.
func sideEffectFree(e ast.Expr) bool {
	switch e := e.(type) {
	case *ast.Ident, *ast.BasicLit:
		return true
	case *ast.ParenExpr:
		return sideEffectFree(e.X)
	case *ast.SelectorExpr:
		return sideEffectFree(e.X)
	case *ast.StarExpr:
		return sideEffectFree(e.X)
	case *ast.IndexExpr:
		return sideEffectFree(e.X) && sideEffectFree(e.Index)
	}
	return false
}

// emitter writes one file with its switched sites replaced.
type emitter struct {
	f     *srcFile
	info  *types.Info
	pkg   *types.Package
	sites []*site // switched sites, by position, outer first
	b     strings.Builder
	spans []span
}

// rewrite sets f.out and f.spans from the sites whose how is switched.
func rewrite(f *srcFile, sites []*site, info *types.Info, pkg *types.Package) {
	e := &emitter{f: f, info: info, pkg: pkg}
	for _, s := range sites {
		if s.file == f && s.how == howSwitched {
			e.sites = append(e.sites, s)
		}
	}
	sort.SliceStable(e.sites, func(i, j int) bool {
		a, b := e.sites[i].node, e.sites[j].node
		if a.Pos() != b.Pos() {
			return a.Pos() < b.Pos()
		}
		return a.End() > b.End()
	})
	base := token.Pos(f.tokFile.Base())
	e.text(base, base+token.Pos(len(f.src)))
	f.out, f.spans = e.b.String(), e.spans
}

func (e *emitter) off(p token.Pos) int { return int(p) - e.f.tokFile.Base() }

// text writes the source from..to with the switched sites inside it replaced.
func (e *emitter) text(from, to token.Pos) {
	cur := from
	i := sort.Search(len(e.sites), func(i int) bool { return e.sites[i].node.Pos() >= from })
	for ; i < len(e.sites); i++ {
		s := e.sites[i]
		if s.node.Pos() >= to {
			break
		}
		if s.node.Pos() < cur || s.node.End() > to {
			continue // inside a site already written, or around this range
		}
		e.b.Write(e.f.src[e.off(cur):e.off(s.node.Pos())])
		start := e.b.Len()
		e.site(s)
		e.spans = append(e.spans, span{start, e.b.Len(), s})
		cur = s.node.End()
	}
	e.b.Write(e.f.src[e.off(cur):e.off(to)])
}

func (e *emitter) expr(x ast.Expr) { e.text(x.Pos(), x.End()) }

func (e *emitter) ids(s *site) string {
	var ids []string
	for _, m := range s.mutants {
		ids = append(ids, fmt.Sprint(m.ID))
	}
	return strings.Join(ids, ", ")
}

var helperOf = map[token.Token]string{
	token.ADD: "bcmutAdd", token.SUB: "bcmutSub", token.MUL: "bcmutMul", token.QUO: "bcmutQuo",
	token.REM: "bcmutRem", token.LSS: "bcmutLss", token.LEQ: "bcmutLeq", token.GTR: "bcmutGtr",
	token.GEQ: "bcmutGeq",
}

// site writes the code that runs the original or one of its mutants.
func (e *emitter) site(s *site) {
	switch n := s.node.(type) {
	case *ast.IncDecStmt:
		m := s.mutants[0]
		if simpleStmtPosition(s) {
			name := map[token.Token]string{token.INC: "bcmutInc", token.DEC: "bcmutDec"}[s.tok]
			e.expr(n.X)
			fmt.Fprintf(&e.b, " = %s(%d, ", name, m.ID)
			e.expr(n.X)
			e.b.WriteString(")")
			return
		}
		fmt.Fprintf(&e.b, "if bcmutActive == %d { ", m.ID)
		e.expr(n.X)
		fmt.Fprintf(&e.b, "%s } else { ", m.To)
		e.expr(n.X)
		fmt.Fprintf(&e.b, "%s }", s.tok)
		return
	}
	if tv := e.info.Types[s.node.(ast.Expr)]; tv.Value != nil {
		e.constant(s, tv.Type)
		return
	}
	switch n := s.node.(type) {
	case *ast.BinaryExpr:
		if s.tok == token.EQL || s.tok == token.NEQ {
			fmt.Fprintf(&e.b, "bcmutNot(%s, ", e.ids(s))
			e.expr(n.X)
			fmt.Fprintf(&e.b, " %s ", s.tok)
			e.expr(n.Y)
			e.b.WriteString(")")
			return
		}
		fmt.Fprintf(&e.b, "%s(%s, ", helperOf[s.tok], e.ids(s))
		e.expr(n.X)
		e.b.WriteString(", ")
		e.expr(n.Y)
		e.b.WriteString(")")
	case *ast.UnaryExpr:
		name := map[token.Token]string{token.SUB: "bcmutNeg", token.ADD: "bcmutPos"}[s.tok]
		fmt.Fprintf(&e.b, "%s(%s, ", name, e.ids(s))
		e.expr(n.X)
		e.b.WriteString(")")
	}
}

// constant writes a constant expression as a closure that returns it, or
// the expression with one operator replaced, in its final type.
func (e *emitter) constant(s *site, t types.Type) {
	name, _ := typeName(t, s.file, e.pkg)
	fmt.Fprintf(&e.b, "func() %s { switch bcmutActive { ", name)
	for _, m := range s.mutants {
		fmt.Fprintf(&e.b, "case %d: return ", m.ID)
		e.operation(s, m.To)
		e.b.WriteString("; ")
	}
	e.b.WriteString("}; return ")
	e.operation(s, s.tok)
	e.b.WriteString(" }()")
}

func (e *emitter) operation(s *site, op token.Token) {
	switch n := s.node.(type) {
	case *ast.BinaryExpr:
		e.b.WriteString("(")
		e.expr(n.X)
		fmt.Fprintf(&e.b, ") %s (", op)
		e.expr(n.Y)
		e.b.WriteString(")")
	case *ast.UnaryExpr:
		fmt.Fprintf(&e.b, "%s(", op)
		e.expr(n.X)
		e.b.WriteString(")")
	}
}

// mutatedSource is the file with one token replaced: gremlins' mutant.
func mutatedSource(m *mutant) []byte {
	f := m.site.file
	off := int(m.site.opPos) - f.tokFile.Base()
	from := m.From.String()
	out := append([]byte(nil), f.src[:off]...)
	out = append(out, m.To.String()...)
	return append(out, f.src[off+len(from):]...)
}

// helperSource is the file added to the package: the switch and one
// generic function per operator.
func helperSource(pkgName string) string {
	return "// Code generated by internal/tools/mutants. DO NOT EDIT.\n\npackage " + pkgName + helperBody
}

const helperBody = `

import (
	"os"
	"strconv"
)

var bcmutActive = func() int {
	n, _ := strconv.Atoi(os.Getenv("BAGCLOCK_MUTANT"))
	return n
}()

type bcmutInteger interface {
	~int | ~int8 | ~int16 | ~int32 | ~int64 | ~uint | ~uint8 | ~uint16 | ~uint32 | ~uint64 | ~uintptr
}

type bcmutReal interface {
	bcmutInteger | ~float32 | ~float64
}

type bcmutNumber interface {
	bcmutReal | ~complex64 | ~complex128
}

type bcmutOrdered interface {
	bcmutReal | ~string
}

func bcmutOn(a, b int) bool { return bcmutActive != 0 && (bcmutActive == a || bcmutActive == b) }

func bcmutAdd[T bcmutNumber](a int, x, y T) T {
	if bcmutOn(a, a) {
		return x - y
	}
	return x + y
}

func bcmutSub[T bcmutNumber](a, b int, x, y T) T {
	if bcmutOn(a, b) {
		return x + y
	}
	return x - y
}

func bcmutMul[T bcmutNumber](a int, x, y T) T {
	if bcmutOn(a, a) {
		return x / y
	}
	return x * y
}

func bcmutQuo[T bcmutNumber](a int, x, y T) T {
	if bcmutOn(a, a) {
		return x * y
	}
	return x / y
}

func bcmutRem[T bcmutInteger](a int, x, y T) T {
	if bcmutOn(a, a) {
		return x * y
	}
	return x % y
}

func bcmutNeg[T bcmutNumber](a, b int, x T) T {
	if bcmutOn(a, b) {
		return +x
	}
	return -x
}

func bcmutPos[T bcmutNumber](a int, x T) T {
	if bcmutOn(a, a) {
		return -x
	}
	return +x
}

func bcmutNot(a int, v bool) bool {
	if bcmutOn(a, a) {
		return !v
	}
	return v
}

// The comparisons: a is CONDITIONALS_BOUNDARY, b CONDITIONALS_NEGATION.

func bcmutLss[T bcmutOrdered](a, b int, x, y T) bool {
	switch {
	case bcmutOn(a, a):
		return x <= y
	case bcmutOn(b, b):
		return x >= y
	}
	return x < y
}

func bcmutLeq[T bcmutOrdered](a, b int, x, y T) bool {
	switch {
	case bcmutOn(a, a):
		return x < y
	case bcmutOn(b, b):
		return x > y
	}
	return x <= y
}

func bcmutGtr[T bcmutOrdered](a, b int, x, y T) bool {
	switch {
	case bcmutOn(a, a):
		return x >= y
	case bcmutOn(b, b):
		return x <= y
	}
	return x > y
}

func bcmutGeq[T bcmutOrdered](a, b int, x, y T) bool {
	switch {
	case bcmutOn(a, a):
		return x > y
	case bcmutOn(b, b):
		return x < y
	}
	return x >= y
}

func bcmutInc[T bcmutNumber](a int, x T) T {
	if bcmutOn(a, a) {
		return x - 1
	}
	return x + 1
}

func bcmutDec[T bcmutNumber](a int, x T) T {
	if bcmutOn(a, a) {
		return x + 1
	}
	return x - 1
}
`

// untyped reports whether the type check left a site's operands without a
// type: in a cgo file, values of C types (its "C" package is faked).
func untyped(s *site, info *types.Info) bool {
	var ops []ast.Expr
	switch n := s.node.(type) {
	case *ast.IncDecStmt:
		ops = []ast.Expr{n.X}
	case *ast.BinaryExpr:
		ops = []ast.Expr{n.X, n.Y}
	case *ast.UnaryExpr:
		ops = []ast.Expr{n.X}
	}
	for _, e := range ops {
		t := info.TypeOf(e)
		if t == nil || t == types.Typ[types.Invalid] {
			return true
		}
	}
	return false
}
