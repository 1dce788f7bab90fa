package analysis

import (
	"fmt"
	"sort"
	"strings"

	"github.com/bagclock/bagclock/analysis/wire"
	"github.com/bagclock/bagclock/bagread"
	"github.com/bagclock/bagclock/cdr"
	"github.com/bagclock/bagclock/ros1msg"
)

// maxListedFrames bounds TFFrames' answer: a frame list is for a person to
// read, and a tree with more frames than this is not mistyped by one.
const maxListedFrames = 10000

// TFFrames reads every tf topic of bag (type tf2_msgs/TFMessage, whatever
// its name) and returns the frame names its transforms use, parent or
// child, without a leading slash, sorted. It lets a caller check a target
// frame before the analysis. Messages that do not decode are skipped: a
// frame list is a hint, and the analysis counts them.
func TFFrames(bag *bagread.Bag) ([]string, error) {
	var topics []string
	for _, t := range bag.Topics {
		if isType(t.Type, cdr.TypeTFMessage) || t.Type == ros1msg.TypeTFLegacy {
			topics = append(topics, t.Name)
		}
	}
	if len(topics) == 0 {
		return nil, nil
	}
	seen := map[string]bool{}
	it := bag.Messages(bagread.ReadOptions{Topics: topics})
	defer it.Close()
	var msg cdr.TFMessage
	dec := wire.Decoder{ROS1: bag.Storage == bagread.StorageROS1}
	for it.Next() && len(seen) < maxListedFrames {
		m := it.Message()
		if m.Err != nil {
			continue
		}
		if err := dec.TF(&msg, m.Data); err != nil {
			continue
		}
		for _, tr := range msg.Transforms {
			for _, f := range []string{tr.Header.FrameID, tr.ChildFrameID} {
				if f = strings.TrimPrefix(f, "/"); f != "" && !seen[f] {
					seen[f] = true
				}
			}
		}
	}
	if err := it.Err(); err != nil {
		return nil, fmt.Errorf("listing tf frames: %w", err)
	}
	frames := make([]string, 0, len(seen))
	for f := range seen {
		frames = append(frames, f)
	}
	sort.Strings(frames)
	return frames, nil
}
