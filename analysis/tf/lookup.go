package tf

import (
	"math"
	"strings"
)

// failure describes a failed walk without allocating; toError turns it into
// an *Error when the caller wants one.
type failure struct {
	form     msgForm
	suffix   bool
	req      int64
	have     int64
	prebuilt string
}

func (f failure) toError(target, source string) *Error {
	return &Error{Kind: kindOf(f.form), form: f.form, suffix: f.suffix, req: f.req, have: f.have,
		source: source, target: target, prebuilt: f.prebuilt}
}

// gather looks up one link at time t (TransformAccum::gather or, without
// interpolation, CanTransformAccum::gather).
func (b *Buffer) gather(f *frameData, t int64, interp bool) probe {
	if f.kind == staticCache {
		return probe{parent: f.static.parent, rot: f.static.rot, trans: f.static.trans}
	}
	return f.dyn.find(t, interp)
}

// walk is BufferCore::walkToTopParent. With accum it also composes the
// transform (TransformAccum); otherwise it only follows parents
// (CanTransformAccum). It returns the transform, the resolved time and, on
// failure, what went wrong. wantText asks for loop texts (the only costly
// part of a failure) to be built.
func (b *Buffer) walk(target, source uint32, t int64, accum, wantText bool) (Transform, int64, failure) {
	ident := Transform{Rotation: identityQuat}
	if source == target {
		return ident, t, failure{}
	}
	if t == 0 {
		lt, f := b.latestCommonTime(target, source, wantText)
		if f.form != formNone {
			return ident, 0, f
		}
		t = lt
	}

	// Walk from the source towards its root.
	srcQ, srcV := identityQuat, Vec3{}
	frame, top := source, source
	var remembered failure
	extrapolated := false
	for depth := 0; frame != 0; {
		f := &b.frames[frame]
		if f.kind == noCache {
			top = frame // a root
			break
		}
		p := b.gather(f, t, accum)
		if p.parent == 0 {
			// There may still be a path from the target up to here.
			top = frame
			extrapolated = true
			remembered = failure{form: p.fail, req: t, have: p.have, suffix: true}
			break
		}
		if frame == target {
			// The target is an ancestor of the source.
			return Transform{Translation: srcV, Rotation: srcQ}, t, failure{}
		}
		if accum {
			srcV = addVec(quatRotate(p.rot, srcV), p.trans)
			srcQ = mulQuat(p.rot, srcQ)
		}
		top = frame
		frame = p.parent
		if depth++; depth > maxGraphDepth {
			return ident, t, b.loopFailure(wantText)
		}
	}

	// Walk from the target up to where the source walk stopped.
	tgtQ, tgtV := identityQuat, Vec3{}
	frame = target
	for depth := 0; frame != top; {
		f := &b.frames[frame]
		if f.kind == noCache {
			break
		}
		p := b.gather(f, t, accum)
		if p.parent == 0 {
			return ident, t, failure{form: p.fail, req: t, have: p.have, suffix: true}
		}
		if frame == source {
			// The source is an ancestor of the target.
			iq := tgtQ.inverse()
			return Transform{Translation: quatRotate(iq, negVec(tgtV)), Rotation: iq}, t, failure{}
		}
		if accum {
			tgtV = addVec(quatRotate(p.rot, tgtV), p.trans)
			tgtQ = mulQuat(p.rot, tgtQ)
		}
		frame = p.parent
		if depth++; depth > maxGraphDepth {
			return ident, t, b.loopFailure(wantText)
		}
	}
	if frame != top {
		if extrapolated {
			return ident, t, remembered
		}
		return ident, t, failure{form: formConnectivity}
	}
	iq := tgtQ.inverse()
	iv := quatRotate(iq, negVec(tgtV))
	return Transform{Translation: addVec(quatRotate(iq, srcV), iv), Rotation: mulQuat(iq, srcQ)}, t, failure{}
}

// loopFailure is the LOOKUP_ERROR of a walk deeper than MAX_GRAPH_DEPTH,
// whose text embeds allFramesAsString.
func (b *Buffer) loopFailure(wantText bool) failure {
	f := failure{form: formLoop}
	if wantText {
		f.prebuilt = "The tf tree is invalid because it contains a loop.\n" + b.allFramesAsString() + "\n"
	}
	return f
}

// allFramesAsString is BufferCore::allFramesAsStringNoLock.
func (b *Buffer) allFramesAsString() string {
	var sb strings.Builder
	for i := 1; i < len(b.frames); i++ {
		f := &b.frames[i]
		var parent uint32
		switch f.kind {
		case noCache:
			continue
		case staticCache:
			parent = f.static.parent
		case dynamicCache:
			parent = f.dyn.find(0, false).parent
		}
		sb.WriteString("Frame ")
		sb.WriteString(f.name)
		sb.WriteString(" exists with parent ")
		sb.WriteString(b.frames[parent].name)
		sb.WriteString(".\n")
	}
	return sb.String()
}

// latestOf is TimeCacheInterface::getLatestTimeAndParent.
func (f *frameData) latestOf() (int64, uint32) {
	switch f.kind {
	case staticCache:
		return 0, f.static.parent
	case dynamicCache:
		if f.dyn.n > 0 {
			e := f.dyn.newest()
			return e.stamp, e.parent
		}
	}
	return 0, 0
}

type lctItem struct {
	stamp  int64
	parent uint32
	child  uint32
}

// lctWalk is the walk of BufferCore::getLatestCommonTime. It returns the
// latest common time and the source-side links used (in src, from the source
// up), followed, when collect is set, by the target-side links.
func (b *Buffer) lctWalk(target, source uint32, wantText bool, src []lctItem, collect bool) (int64, []lctItem, failure) {
	if source == 0 || target == 0 {
		return 0, src, failure{form: formNotDefined}
	}
	if source == target {
		st, _ := b.frames[source].latestOf()
		return st, src, failure{}
	}
	common := int64(math.MaxInt64)
	frame := source
	for depth := 0; frame != 0; {
		f := &b.frames[frame]
		if f.kind == noCache {
			break
		}
		stamp, parent := f.latestOf()
		if parent == 0 {
			break
		}
		if stamp != 0 {
			common = min(common, stamp)
		}
		src = append(src, lctItem{stamp: stamp, parent: parent, child: frame})
		frame = parent
		if frame == target {
			return zeroIfMax(common), src, failure{}
		}
		if depth++; depth > maxGraphDepth {
			return 0, src, b.loopFailure(wantText)
		}
	}
	nsrc := len(src)

	frame = target
	common = math.MaxInt64
	var commonParent uint32
	used := 0
	for depth := 0; ; {
		f := &b.frames[frame]
		if f.kind == noCache {
			break
		}
		stamp, parent := f.latestOf()
		if parent == 0 {
			break
		}
		if stamp != 0 {
			common = min(common, stamp)
		}
		if collect {
			src = append(src, lctItem{stamp: stamp, parent: parent, child: frame})
		}
		found := false
		for i := 0; i < nsrc; i++ {
			if src[i].parent == parent {
				found, used = true, i+1
				break
			}
		}
		if found {
			commonParent = parent
			break
		}
		frame = parent
		if frame == source {
			return zeroIfMax(common), src[nsrc:], failure{}
		}
		if depth++; depth > maxGraphDepth {
			return 0, src, b.loopFailure(wantText)
		}
	}
	if commonParent == 0 {
		return 0, src, failure{form: formConnectivity}
	}
	// src[:used] are the source-side links up to the common parent.
	for _, it := range src[:used] {
		if it.stamp != 0 {
			common = min(common, it.stamp)
		}
	}
	if collect {
		// Drop the source-side links above the common parent.
		src = append(src[:used], src[nsrc:]...)
	}
	return zeroIfMax(common), src, failure{}
}

func zeroIfMax(t int64) int64 {
	if t == math.MaxInt64 {
		return 0
	}
	return t
}

func (b *Buffer) latestCommonTime(target, source uint32, wantText bool) (int64, failure) {
	var stack [32]lctItem
	t, _, f := b.lctWalk(target, source, wantText, stack[:0], false)
	return t, f
}

// validateLookup is the throwing validateFrameId of lookupTransform.
func (b *Buffer) validateLookup(arg, frame string) (uint32, *Error) {
	if frame == "" {
		return 0, &Error{Kind: InvalidArgumentError, form: formArgEmpty, arg: arg, frame: frame}
	}
	if frame[0] == '/' {
		return 0, &Error{Kind: InvalidArgumentError, form: formArgSlash, arg: arg, frame: frame}
	}
	id, ok := b.ids[frame]
	if !ok {
		return 0, &Error{Kind: LookupError, form: formArgUnknown, arg: arg, frame: frame}
	}
	return id, nil
}

// validateCan is the non-throwing validateFrameId of canTransform. With
// wantErr false it reports failure as a nil id only, allocating nothing.
func (b *Buffer) validateCan(arg, frame string, wantErr bool) (uint32, *Error) {
	form := formNone
	var id uint32
	switch {
	case frame == "":
		form = formCanEmpty
	case frame[0] == '/':
		form = formCanSlash
	default:
		var ok bool
		if id, ok = b.ids[frame]; !ok {
			form = formCanUnknown
		}
	}
	if form == formNone || !wantErr {
		return id, nil
	}
	return 0, &Error{Kind: kindOf(form), form: form, arg: arg, frame: frame}
}

// LookupTransform returns the transform that maps source-frame coordinates
// into the target frame at time t (0 = latest common time), as tf2's
// lookupTransform: Parent = target, Child = source, Stamp = the resolved
// time. target == source returns the identity before any validation, even
// for unknown names, stamped t or, for t = 0, that frame's newest stamp.
// Errors are *Error values with tf2's kind and message text.
func (b *Buffer) LookupTransform(target, source string, t int64) (Stamped, error) {
	if target == source {
		out := Stamped{Parent: target, Child: source, Stamp: t, Transform: Transform{Rotation: identityQuat}}
		if t == 0 {
			if id, ok := b.ids[target]; ok {
				out.Stamp, _ = b.frames[id].latestOf()
			}
		}
		return out, nil
	}
	tid, err := b.validateLookup("lookupTransform argument target_frame", target)
	if err != nil {
		return Stamped{}, err
	}
	sid, err := b.validateLookup("lookupTransform argument source_frame", source)
	if err != nil {
		return Stamped{}, err
	}
	tr, at, f := b.walk(tid, sid, t, true, true)
	if f.form != formNone {
		return Stamped{}, f.toError(target, source)
	}
	return Stamped{Parent: target, Child: source, Stamp: at, Transform: tr}, nil
}

// CanTransform reports whether LookupTransform would succeed (tf2's
// canTransform without an error string). It never allocates.
func (b *Buffer) CanTransform(target, source string, t int64) bool {
	if target == source {
		return true
	}
	tid, _ := b.validateCan("", target, false)
	if tid == 0 {
		return false
	}
	sid, _ := b.validateCan("", source, false)
	if sid == 0 {
		return false
	}
	_, _, f := b.walk(tid, sid, t, false, false)
	return f.form == formNone
}

// CanTransformErr is CanTransform with tf2's error (nil on success): the
// texts canTransform writes to its error_msg argument, which for invalid
// frames differ from lookupTransform's (`Invalid frame ID "x" passed to
// canTransform argument source_frame - frame does not exist`).
func (b *Buffer) CanTransformErr(target, source string, t int64) error {
	if target == source {
		return nil
	}
	tid, err := b.validateCan("canTransform argument target_frame", target, true)
	if err != nil {
		return err
	}
	sid, err := b.validateCan("canTransform argument source_frame", source, true)
	if err != nil {
		return err
	}
	if _, _, f := b.walk(tid, sid, t, false, true); f.form != formNone {
		return f.toError(target, source)
	}
	return nil
}

// unknownFrame is the error of LatestCommonTime and Path for a name that
// was never interned. tf2's getLatestCommonTime returns LOOKUP_ERROR with no
// text here; the text is bagclock's, in validateFrameId's wording.
func unknownFrame(fn, arg, frame string) *Error {
	return &Error{Kind: LookupError, form: formArgUnknown, arg: fn + " argument " + arg, frame: frame}
}

// LatestCommonTime is tf2's getLatestCommonTime: the minimum over the links
// between the two frames of each link's newest stamp, following the newest
// parents; static links are ignored, so an all-static path gives 0. Names
// are used as given (no slash stripping). An unknown frame gives a
// LookupError (tf2: LOOKUP_ERROR without text), frames in different trees a
// ConnectivityError, a loop a LookupError. target == source (both known)
// gives that frame's newest stamp, 0 for a static link or a root.
func (b *Buffer) LatestCommonTime(target, source string) (int64, error) {
	tid, ok := b.ids[target]
	if !ok {
		return 0, unknownFrame("getLatestCommonTime", "target_frame", target)
	}
	sid, ok := b.ids[source]
	if !ok {
		return 0, unknownFrame("getLatestCommonTime", "source_frame", source)
	}
	t, f := b.latestCommonTime(tid, sid, true)
	if f.form != formNone {
		return 0, f.toError(target, source)
	}
	return t, nil
}

// Link is one edge on the path between two frames, as it stands now.
type Link struct {
	Parent, Child string
	Static        bool
	// NewestNS and OldestNS are the newest and oldest cached stamps of a
	// dynamic link (0 for static links).
	NewestNS, OldestNS int64
}

// Path returns the links getLatestCommonTime uses: from the source up to
// the common ancestor, then from the target up to it, each following the
// newest parents. A dynamic link whose cache is empty (after Clear) ends a
// walk, as in tf2. target == source gives no links. Errors are as for
// LatestCommonTime.
func (b *Buffer) Path(target, source string) ([]Link, error) {
	return b.AppendPath(nil, target, source)
}

// AppendPath is Path appending to dst, for callers that reuse a slice.
func (b *Buffer) AppendPath(dst []Link, target, source string) ([]Link, error) {
	tid, ok := b.ids[target]
	if !ok {
		return dst, unknownFrame("Path", "target_frame", target)
	}
	sid, ok := b.ids[source]
	if !ok {
		return dst, unknownFrame("Path", "source_frame", source)
	}
	if tid == sid {
		return dst, nil
	}
	var stack [32]lctItem
	_, items, f := b.lctWalk(tid, sid, true, stack[:0], true)
	if f.form != formNone {
		return dst, f.toError(target, source)
	}
	for _, it := range items {
		fd := &b.frames[it.child]
		l := Link{Parent: b.frames[it.parent].name, Child: fd.name, Static: fd.kind == staticCache}
		if fd.kind == dynamicCache { // a walked link has a cached entry
			l.NewestNS, l.OldestNS = fd.dyn.newest().stamp, fd.dyn.oldest().stamp
		}
		dst = append(dst, l)
	}
	return dst, nil
}
