package analysis

import (
	"path"
	"sort"
	"strings"

	"github.com/bagclock/bagclock/analysis/topics"
)

// The synchronizers bagclock emulates when --sync names none: those of the
// consumers a bag's camera topics are recorded for. Values were read from
// the upstream ROS 2 sources (search tool, public repositories):
//
//   - image_transport's CameraSubscriber (ros-perception/image_common,
//     image_transport/src/camera_subscriber.cpp): a
//     message_filters::TimeSynchronizer<Image, CameraInfo> built with
//     sync_(10) in Impl's constructor, i.e. ExactTime with queue 10. The
//     info topic is getCameraInfoTopic(image topic): the image topic's
//     namespace + "/camera_info" (camera_common.cpp). Every image_proc,
//     stereo_image_proc and RViz Camera display subscribes this way.
//   - depth_image_proc's PointCloudXyzrgbNode (ros-perception/
//     image_pipeline, depth_image_proc/src/point_cloud_xyzrgb.cpp):
//     ApproximateTime over (depth_registered/image_rect,
//     rgb/image_rect_color, getCameraInfoTopic(rgb topic)) with
//     declare_parameter("queue_size", 5) and exact_sync false; RegisterNode
//     (register.cpp) has the same queue default. Issue 23 says queue 10;
//     the source says 5, and 5 is what a node started without parameters
//     runs.
const (
	cameraInfoQueue  = 10
	depthColourQueue = 5

	sourceCameraSubscriber = "image_transport CameraSubscriber (ExactTime, queue 10: image_common camera_subscriber.cpp)"
	sourceDepthColour      = "depth_image_proc point_cloud_xyzrgb (ApproximateTime, queue_size 5: image_pipeline point_cloud_xyzrgb.cpp)"

	// maxDefaultSyncs bounds the synchronizers found by name: a bag with
	// dozens of cameras gets the first ones, sorted by topic.
	maxDefaultSyncs = 16
)

// cameraInfoTopic is image_transport's getCameraInfoTopic: the image
// topic's namespace with camera_info; a compressed transport's topic
// (image_raw/compressed) counts from its base topic.
func cameraInfoTopic(image string, compressed bool) string {
	base := image
	if compressed {
		base = path.Dir(image)
	}
	return path.Join(path.Dir(base), "camera_info")
}

// defaultSyncs finds the synchronizers the bag's topics suggest: every
// image (raw or compressed) with its camera_info, and per camera the depth
// image with the colour image (and the colour camera_info when recorded).
func defaultSyncs(infos []topics.TopicInfo) []SyncSpec {
	typ := map[string]string{}
	var names []string
	for _, ti := range infos {
		if ti.Role != topics.Stamped {
			continue
		}
		typ[ti.Name] = normType(ti.Type)
		names = append(names, ti.Name)
	}
	sort.Strings(names)
	var out []SyncSpec
	for _, n := range names {
		t := typ[n]
		if t != "sensor_msgs/Image" && t != "sensor_msgs/CompressedImage" {
			continue
		}
		info := cameraInfoTopic(n, t == "sensor_msgs/CompressedImage")
		if typ[info] == "sensor_msgs/CameraInfo" {
			out = append(out, SyncSpec{Topics: []string{n, info}, Policy: "exact", QueueSize: cameraInfoQueue, Source: sourceCameraSubscriber})
		}
	}
	// Depth and colour images of one camera: the namespace before the
	// path element that says depth or colour.
	type camera struct{ depth, colour []string }
	cams := map[string]*camera{}
	var order []string
	for _, n := range names {
		if typ[n] != "sensor_msgs/Image" {
			continue
		}
		ns, kind := cameraRole(n)
		if kind == "" {
			continue
		}
		c := cams[ns]
		if c == nil {
			c = &camera{}
			cams[ns] = c
			order = append(order, ns)
		}
		if kind == "depth" {
			c.depth = append(c.depth, n)
		} else {
			c.colour = append(c.colour, n)
		}
	}
	for _, ns := range order {
		c := cams[ns]
		if len(c.depth) == 0 || len(c.colour) == 0 {
			continue
		}
		d, col := preferred(c.depth, "registered", "aligned", "image_rect"), preferred(c.colour, "image_rect_color", "image_rect", "image_raw")
		s := SyncSpec{Topics: []string{d, col}, Policy: "approximate", QueueSize: depthColourQueue, Source: sourceDepthColour}
		if info := cameraInfoTopic(col, false); typ[info] == "sensor_msgs/CameraInfo" {
			s.Topics = append(s.Topics, info)
		}
		out = append(out, s)
	}
	if len(out) > maxDefaultSyncs {
		out = out[:maxDefaultSyncs]
	}
	return out
}

// cameraRole splits an image topic into its camera's namespace and
// whether it is the depth or the colour stream ("" for neither):
// /camera/depth/image_rect_raw is ("/camera", "depth"),
// /camera/aligned_depth_to_color/image_raw depth, /kinect/rgb/image_color
// colour.
func cameraRole(topic string) (string, string) {
	parts := strings.Split(strings.TrimPrefix(topic, "/"), "/")
	for i, p := range parts[:max(len(parts)-1, 0)] {
		l := strings.ToLower(p)
		ns := "/" + strings.Join(parts[:i], "/")
		switch {
		case strings.Contains(l, "depth"):
			return ns, "depth"
		case strings.Contains(l, "color") || strings.Contains(l, "colour") || l == "rgb" || strings.HasPrefix(l, "rgb_"):
			return ns, "colour"
		}
	}
	return "", ""
}

// preferred picks the first name containing the earliest of hints, else
// the first name (sorted).
func preferred(names []string, hints ...string) string {
	for _, h := range hints {
		for _, n := range names {
			if strings.Contains(n, h) {
				return n
			}
		}
	}
	return names[0]
}
