package sync

// ring is a double-ended queue of messages: ApproximateTime's per-topic
// deque, which recover() refills at the front.
type ring struct {
	buf     []msg
	head, n int
}

func (r *ring) len() int { return r.n }

func (r *ring) at(i int) msg { return r.buf[(r.head+i)%len(r.buf)] }

func (r *ring) front() msg { return r.at(0) }

func (r *ring) back() msg { return r.at(r.n - 1) }

func (r *ring) grow() {
	if r.n < len(r.buf) {
		return
	}
	nb := make([]msg, max(4, 2*len(r.buf)))
	for i := 0; i < r.n; i++ {
		nb[i] = r.at(i)
	}
	r.buf, r.head = nb, 0
}

func (r *ring) pushBack(m msg) {
	r.grow()
	r.buf[(r.head+r.n)%len(r.buf)] = m
	r.n++
}

func (r *ring) pushFront(m msg) {
	r.grow()
	r.head = (r.head - 1 + len(r.buf)) % len(r.buf)
	r.buf[r.head] = m
	r.n++
}

func (r *ring) popFront() msg {
	m := r.at(0)
	r.head = (r.head + 1) % len(r.buf)
	r.n--
	return m
}

func (r *ring) clear() { r.head, r.n = 0, 0 }
