package main

import (
	"go/ast"
	"go/token"
)

// Mutator names as gremlins v0.5.0 prints them.
const (
	arithmeticBase       = "ARITHMETIC_BASE"
	conditionalsBoundary = "CONDITIONALS_BOUNDARY"
	conditionalsNegation = "CONDITIONALS_NEGATION"
	incrementDecrement   = "INCREMENT_DECREMENT"
	invertNegatives      = "INVERT_NEGATIVES"
)

// mutatorsOf lists, per token, the mutators gremlins v0.5.0 applies with its
// default configuration, in its order (internal/engine/mappings.go,
// TokenMutantType, restricted to the five mutators enabled by default; for a
// token whose first mutator is disabled gremlins stops, so those tokens have
// none here).
var mutatorsOf = map[token.Token][]string{
	token.ADD: {arithmeticBase},
	token.SUB: {invertNegatives, arithmeticBase},
	token.MUL: {arithmeticBase},
	token.QUO: {arithmeticBase},
	token.REM: {arithmeticBase},
	token.EQL: {conditionalsNegation},
	token.NEQ: {conditionalsNegation},
	token.LSS: {conditionalsBoundary, conditionalsNegation},
	token.LEQ: {conditionalsBoundary, conditionalsNegation},
	token.GTR: {conditionalsBoundary, conditionalsNegation},
	token.GEQ: {conditionalsBoundary, conditionalsNegation},
	token.INC: {incrementDecrement},
	token.DEC: {incrementDecrement},
}

// replacement is the token gremlins v0.5.0 writes for a mutator
// (internal/engine/mappings.go, tokenMutations).
func replacement(mutator string, tok token.Token) token.Token {
	switch mutator {
	case arithmeticBase:
		return map[token.Token]token.Token{token.ADD: token.SUB, token.MUL: token.QUO,
			token.QUO: token.MUL, token.REM: token.MUL, token.SUB: token.ADD}[tok]
	case conditionalsBoundary:
		return map[token.Token]token.Token{token.GEQ: token.GTR, token.GTR: token.GEQ,
			token.LEQ: token.LSS, token.LSS: token.LEQ}[tok]
	case conditionalsNegation:
		return map[token.Token]token.Token{token.EQL: token.NEQ, token.GEQ: token.LSS,
			token.GTR: token.LEQ, token.LEQ: token.GTR, token.LSS: token.GEQ, token.NEQ: token.EQL}[tok]
	case incrementDecrement:
		return map[token.Token]token.Token{token.DEC: token.INC, token.INC: token.DEC}[tok]
	case invertNegatives:
		return map[token.Token]token.Token{token.SUB: token.ADD}[tok]
	}
	return token.ILLEGAL
}

// mutant is one of gremlins' mutants: a token at a position and the token it
// becomes.
type mutant struct {
	ID      int // 1-based; the value of BAGCLOCK_MUTANT that switches it on
	File    string
	Line    int
	Col     int
	Mutator string
	From    token.Token
	To      token.Token
	site    *site
}

// site is one mutable node: a binary or unary expression or an
// increment/decrement statement, with its mutants (one or two).
type site struct {
	node    ast.Node
	file    *srcFile
	opPos   token.Pos
	tok     token.Token
	mutants []*mutant
	parents []ast.Node // outermost first, not including node

	how    string // switched, build (one build per mutant), notviable
	reason string // why not switched
}

// findSites walks a file the way gremlins v0.5.0 does (ast.Inspect over the
// whole file, every AssignStmt, BinaryExpr, BranchStmt, IncDecStmt and
// UnaryExpr, its operator token) and returns the sites in that order.
func findSites(f *srcFile, fset *token.FileSet) []*site {
	var sites []*site
	var stack []ast.Node
	ast.Inspect(f.ast, func(n ast.Node) bool {
		if n == nil {
			stack = stack[:len(stack)-1]
			return true
		}
		var tok token.Token
		var pos token.Pos
		switch n := n.(type) {
		case *ast.BinaryExpr:
			tok, pos = n.Op, n.OpPos
		case *ast.UnaryExpr:
			tok, pos = n.Op, n.OpPos
		case *ast.IncDecStmt:
			tok, pos = n.Tok, n.TokPos
		}
		if muts := mutatorsOf[tok]; len(muts) > 0 {
			s := &site{node: n, file: f, opPos: pos, tok: tok, parents: append([]ast.Node(nil), stack...)}
			p := fset.Position(pos)
			for _, m := range muts {
				s.mutants = append(s.mutants, &mutant{File: f.name, Line: p.Line, Col: p.Column,
					Mutator: m, From: tok, To: replacement(m, tok), site: s})
			}
			sites = append(sites, s)
		}
		stack = append(stack, n)
		return true
	})
	return sites
}
