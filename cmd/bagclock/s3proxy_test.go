package main

import (
	"io"
	"log"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// s3Proxy is a proxy on 127.0.0.1 in front of the gateway that counts the
// body bytes it serves and injects faults on GETs that fault chooses.
type s3Proxy struct {
	srv    *httptest.Server
	served atomic.Int64
	gets   atomic.Int64
	mu     sync.Mutex
	// fault, when set, sees each GET (numbered from 1) and may answer
	// it: "500", "503", "403", "stall", "short" (half the body), or "" to pass.
	fault func(n int64, r *http.Request) string
	// refuse, when set, answers 403 to the requests it picks (any kind).
	refuse func(r *http.Request) bool
}

type countingBody struct {
	io.ReadCloser
	n     *atomic.Int64
	limit int64 // stop after this many bytes (short); <0 no limit
}

func (c *countingBody) Read(p []byte) (int, error) {
	if c.limit == 0 {
		return 0, io.ErrUnexpectedEOF
	}
	if c.limit > 0 && int64(len(p)) > c.limit {
		p = p[:c.limit]
	}
	n, err := c.ReadCloser.Read(p)
	c.n.Add(int64(n))
	if c.limit > 0 {
		c.limit -= int64(n)
	}
	return n, err
}

func newS3Proxy(t *testing.T, backend string) *s3Proxy {
	u, err := url.Parse(backend)
	if err != nil {
		t.Fatal(err)
	}
	p := &s3Proxy{}
	rp := httputil.NewSingleHostReverseProxy(u)
	rp.ModifyResponse = func(resp *http.Response) error {
		limit := int64(-1)
		if resp.Request.Header.Get("X-Fault") == "short" && resp.ContentLength > 1 {
			limit = resp.ContentLength / 2
		}
		resp.Body = &countingBody{ReadCloser: resp.Body, n: &p.served, limit: limit}
		return nil
	}
	rp.ErrorLog = log.New(io.Discard, "", 0) // cut-short bodies are on purpose
	p.srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		p.mu.Lock()
		refuse := p.refuse
		p.mu.Unlock()
		if refuse != nil && refuse(r) {
			accessDenied(w)
			return
		}
		if r.Method == http.MethodGet && r.Header.Get("Range") != "" {
			n := p.gets.Add(1)
			p.mu.Lock()
			f := p.fault
			p.mu.Unlock()
			what := ""
			if f != nil {
				what = f(n, r)
			}
			switch what {
			case "403":
				accessDenied(w)
				return
			case "500", "503":
				code := http.StatusInternalServerError
				if what == "503" {
					code = http.StatusServiceUnavailable
				}
				w.WriteHeader(code)
				return
			case "stall":
				select {
				case <-r.Context().Done():
				case <-time.After(20 * time.Second):
				}
				return
			case "short":
				r.Header.Set("X-Fault", "short")
			}
		}
		rp.ServeHTTP(w, r)
	}))
	t.Cleanup(p.srv.Close)
	return p
}

func (p *s3Proxy) setFault(f func(n int64, r *http.Request) string) {
	p.mu.Lock()
	p.fault = f
	p.mu.Unlock()
}

// accessDenied answers as S3 does to refused credentials.
func accessDenied(w http.ResponseWriter) {
	w.Header().Set("Content-Type", "application/xml")
	w.WriteHeader(http.StatusForbidden)
	io.WriteString(w, `<?xml version="1.0" encoding="UTF-8"?><Error><Code>AccessDenied</Code><Message>Access Denied</Message></Error>`)
}

func (p *s3Proxy) setRefuse(f func(r *http.Request) bool) {
	p.mu.Lock()
	p.refuse = f
	p.mu.Unlock()
}
