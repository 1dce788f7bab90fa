package analysis

import (
	"strings"

	"github.com/bagclock/bagclock/analysis/msgfilter"
)

// sensorKind groups the stamped types analysed by default: messages a
// consumer transforms into another frame through tf, so that a clock
// fault drops or misplaces them. Other stamped types (JointState,
// DiagnosticArray, Marker, OccupancyGrid, ...) are listed but analysed only
// when --topic names them: their stamps are legitimately old or zero.
// Poses (PoseStamped, PoseWithCovarianceStamped) are left out by default
// too: they are outputs of localisation, stamped with the scan they come
// from, while map->odom is future-dated by the localiser's
// transform_tolerance (AMCL: 1 s), so their diff is not a clock fault.
type sensorKind struct {
	// noun names the publisher in the verdict ("laser driver").
	noun string
	// family picks the consumer preset for the type (see presetFor).
	family string
}

// Families of consumer presets.
const (
	familyLaser  = "laser"
	familyCloud  = "cloud"
	familyCamera = "camera"
	familyOther  = "other"
)

// sensorTypes maps "pkg/Type" (the older spelling; normalised) to its kind.
var sensorTypes = map[string]sensorKind{
	"sensor_msgs/LaserScan":          {"laser driver", familyLaser},
	"sensor_msgs/MultiEchoLaserScan": {"laser driver", familyOther},
	"sensor_msgs/PointCloud2":        {"point-cloud driver", familyCloud},
	"sensor_msgs/PointCloud":         {"point-cloud driver", familyOther},
	"sensor_msgs/Range":              {"range sensor driver", familyOther},
	"sensor_msgs/Image":              {"camera driver", familyCamera},
	"sensor_msgs/CompressedImage":    {"camera driver", familyCamera},
	"sensor_msgs/CameraInfo":         {"camera driver", familyCamera},
	"stereo_msgs/DisparityImage":     {"stereo camera driver", familyCamera},
	"sensor_msgs/Imu":                {"IMU driver", familyOther},
	"sensor_msgs/MagneticField":      {"magnetometer driver", familyOther},
	"sensor_msgs/NavSatFix":          {"GNSS driver", familyOther},
	"nav_msgs/Odometry":              {"odometry publisher", familyOther},
}

// normType turns "pkg/msg/Type" into "pkg/Type".
func normType(typ string) string {
	if p, rest, ok := strings.Cut(typ, "/msg/"); ok && !strings.Contains(rest, "/") {
		return p + "/" + rest
	}
	return typ
}

// isSensorType reports whether typ is analysed by default.
func isSensorType(typ string) bool {
	_, ok := sensorTypes[normType(typ)]
	return ok
}

// PublisherNoun names the node publishing a topic of type typ.
func PublisherNoun(typ string) string {
	if k, ok := sensorTypes[normType(typ)]; ok {
		return k.noun
	}
	return "publisher"
}

// presetFor returns the consumer preset emulated for a topic of type typ
// when the user chose consumer (a Config.Consumer value). LaserScan topics
// get the chosen consumer's preset; other types get what the same
// consumer's world uses for them: the RViz display of that type, or Nav2's
// obstacle layer for PointCloud2 under nav2. Nav2's range layer has no
// MessageFilter (it calls canTransform when the costmap updates), and
// slam_toolbox and AMCL take LaserScan only, so their other types fall back
// to the RViz display.
func presetFor(consumer string, laser msgfilter.Preset, typ string) msgfilter.Preset {
	fam := familyOther
	if k, ok := sensorTypes[normType(typ)]; ok {
		fam = k.family
	}
	if fam == familyLaser {
		return laser
	}
	nav2 := consumer == "nav2" || strings.HasPrefix(laser.Name, "nav2-")
	switch {
	case fam == familyCloud && nav2:
		return msgfilter.Presets["nav2-obstacle-layer-pointcloud"]
	case fam == familyCamera:
		return msgfilter.Presets["rviz-camera"]
	default:
		return msgfilter.Presets["rviz-display"]
	}
}
