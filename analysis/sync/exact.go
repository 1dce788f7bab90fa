package sync

import "sort"

// exact is sync_policies::ExactTime: a map from stamp to one slot per
// topic, published when full. Line numbers are ros_comm 1.15.15's
// exact_time.h; ros2's exact_time.hpp makes the same decisions.
type exact struct {
	s          *Sync
	tuples     []tuple // sorted by stamp, as std::map<ros::Time, Tuple>
	lastSignal int64   // last_signal_time_
	lastNow    int64   // ROS 1 reset: last ros::Time::now()
}

type tuple struct {
	stamp int64
	slot  [MaxTopics]msg
}

func (e *exact) live(f func(int, msg)) {
	for t := range e.tuples {
		for i := 0; i < e.s.cfg.Topics; i++ {
			if m := e.tuples[t].slot[i]; m.ok {
				f(i, m)
			}
		}
	}
}

func (e *exact) dropTuple(t *tuple, r DropReason) {
	for i := 0; i < e.s.cfg.Topics; i++ {
		if t.slot[i].ok {
			e.s.drop(i, t.slot[i], r)
		}
	}
}

// add is add<i>() (121-145).
func (e *exact) add(i int, m msg) {
	if e.s.cfg.Reset {
		// ROS 1 only, under sim time: ros::Time::now() (the receipt time)
		// going back clears every tuple, without the drop signal.
		if m.recv < e.lastNow {
			for t := range e.tuples {
				e.dropTuple(&e.tuples[t], DropReset)
			}
			e.tuples = e.tuples[:0]
		}
		e.lastNow = m.recv
	}
	at := sort.Search(len(e.tuples), func(j int) bool { return e.tuples[j].stamp >= m.stamp })
	if at == len(e.tuples) || e.tuples[at].stamp != m.stamp {
		e.tuples = append(e.tuples, tuple{})
		copy(e.tuples[at+1:], e.tuples[at:])
		e.tuples[at] = tuple{stamp: m.stamp}
	}
	t := &e.tuples[at]
	if t.slot[i].ok {
		// Same topic, same stamp: the slot is replaced silently (141-142).
		e.s.drop(i, t.slot[i], DropOverwritten)
	}
	t.slot[i] = m
	e.checkTuple(at)
}

// checkTuple (195-234) with clearOldTuples (237-260).
func (e *exact) checkTuple(at int) {
	k := e.s.cfg.Topics
	full := true
	for i := 0; i < k; i++ {
		full = full && e.tuples[at].slot[i].ok
	}
	if full {
		e.s.emit(e.tuples[at].slot[:k])
		e.lastSignal = e.tuples[at].stamp
		e.tuples = append(e.tuples[:at], e.tuples[at+1:]...)
		// Every tuple stamped at or before the published one goes, with the
		// drop signal, even one that arrived after it.
		n := 0
		for n < len(e.tuples) && e.tuples[n].stamp <= e.lastSignal {
			e.dropTuple(&e.tuples[n], DropOlderThanSet)
			n++
		}
		e.tuples = append(e.tuples[:0], e.tuples[n:]...)
	}
	if q := e.s.cfg.QueueSize; q > 0 {
		for len(e.tuples) > q {
			e.dropTuple(&e.tuples[0], DropQueueFull)
			e.tuples = append(e.tuples[:0], e.tuples[1:]...)
		}
	}
}
