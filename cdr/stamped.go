package cdr

import "strings"

// StampInfo says whether messages of a type start with std_msgs/Header,
// so that DecodeHeaderInto may read their stamp and frame id.
type StampInfo struct {
	// Stamped: the type's first field is a std_msgs/Header.
	Stamped bool
	// Known: the answer comes from the built-in table or from the bag's
	// own definition; when false the type is not analysed (Stamped false).
	Known bool
	// Reason is a short sentence for reports.
	Reason string
}

// Reasons LookupStamped gives (definition errors add their detail).
const (
	ReasonKnownStamped      = "known stamped type"
	ReasonKnownUnstamped    = "known type without a header"
	ReasonDefStamped        = "definition in the bag starts with std_msgs/Header"
	ReasonDefUnstamped      = "definition in the bag does not start with std_msgs/Header"
	ReasonNoDefinition      = "no definition in the bag and type not known: not analysed"
	ReasonDefinitionInvalid = "definition does not parse"
)

// LookupStamped decides whether typ (either "pkg/msg/Type" or the older
// "pkg/Type") is header-first: from the built-in table of common types
// (docs/stamped-types.md §1.2, read from the upstream .msg files), else
// from the bag's own definition (defEncoding "ros2msg" or "ros2idl", def
// the MCAP Schema data or sqlite message_definitions text). It never looks
// at message bytes. A definition that cannot be parsed gives Known false
// and a Reason starting "definition does not parse: ".
func LookupStamped(typ, defEncoding, def string) StampInfo {
	if si, ok := generatedType(typ); ok {
		return si
	}
	if stamped, ok := knownTypes[tableKey(typ)]; ok {
		if stamped {
			return StampInfo{Stamped: true, Known: true, Reason: ReasonKnownStamped}
		}
		return StampInfo{Known: true, Reason: ReasonKnownUnstamped}
	}
	if strings.TrimSpace(def) == "" {
		return StampInfo{Reason: ReasonNoDefinition}
	}
	return StampedFromDefinition(typ, defEncoding, def)
}

// StampedFromDefinition decides from the bag's definition alone (no
// built-in table): what LookupStamped answers for a type it does not know.
func StampedFromDefinition(typ, defEncoding, def string) StampInfo {
	if si, ok := generatedType(typ); ok {
		return si
	}
	if strings.TrimSpace(def) == "" {
		return StampInfo{Reason: ReasonNoDefinition}
	}
	var f FirstField
	var err error
	switch defEncoding {
	case "ros2msg":
		f, err = FirstFieldMsg(def)
	case "ros2idl":
		f, err = FirstFieldIDL(def, typ)
	default:
		return StampInfo{Reason: "definition encoding " + quote(defEncoding) + " is not read: not analysed"}
	}
	if err != nil {
		return StampInfo{Reason: ReasonDefinitionInvalid + ": " + err.Error()}
	}
	return f.stampInfo()
}

// generatedType answers for the types rosidl generates for services and
// actions, whose bag definition is the .srv/.action text rather than the
// generated message's fields: a service event (Jazzy service
// introspection, "pkg/srv/X_Event") starts with
// service_msgs/ServiceEventInfo info, an action feedback message
// ("pkg/action/X_FeedbackMessage") with unique_identifier_msgs/UUID
// goal_id; neither has a header.
func generatedType(typ string) (StampInfo, bool) {
	switch {
	case strings.Contains(typ, "/srv/") && strings.HasSuffix(typ, "_Event"):
		return StampInfo{Known: true, Reason: ReasonKnownUnstamped + " (service event: service_msgs/ServiceEventInfo info first)"}, true
	case strings.Contains(typ, "/action/") && strings.HasSuffix(typ, "_FeedbackMessage"):
		return StampInfo{Known: true, Reason: ReasonKnownUnstamped + " (action feedback: unique_identifier_msgs/UUID goal_id first)"}, true
	}
	return StampInfo{}, false
}

// tableKey turns "pkg/msg/Type" into "pkg/Type"; other names are kept.
func tableKey(typ string) string {
	if i := strings.Index(typ, "/msg/"); i > 0 && !strings.Contains(typ[i+5:], "/") {
		return typ[:i] + "/" + typ[i+5:]
	}
	return typ
}

func quote(s string) string { return "\"" + s + "\"" }

// knownTypes maps "pkg/Type" to header-first, for the types of
// docs/stamped-types.md §1.2 (common_interfaces, geometry2,
// rcl_interfaces and common third-party packages; Humble and Jazzy agree
// on all of them).
var knownTypes = func() map[string]bool {
	m := map[string]bool{}
	add := func(stamped bool, pkg string, names string) {
		for _, n := range strings.Fields(names) {
			m[pkg+"/"+n] = stamped
		}
	}
	add(true, "sensor_msgs", `BatteryState CameraInfo CompressedImage FluidPressure Illuminance Image Imu
		JointState Joy LaserScan MagneticField MultiDOFJointState MultiEchoLaserScan NavSatFix PointCloud
		PointCloud2 Range RelativeHumidity Temperature TimeReference`)
	add(false, "sensor_msgs", `ChannelFloat32 JoyFeedback JoyFeedbackArray LaserEcho NavSatStatus PointField RegionOfInterest`)
	add(true, "nav_msgs", `GridCells OccupancyGrid Odometry Path`)
	add(false, "nav_msgs", `MapMetaData`)
	add(true, "stereo_msgs", `DisparityImage`)
	add(true, "diagnostic_msgs", `DiagnosticArray`)
	add(false, "diagnostic_msgs", `DiagnosticStatus KeyValue`)
	add(true, "trajectory_msgs", `JointTrajectory MultiDOFJointTrajectory`)
	add(false, "trajectory_msgs", `JointTrajectoryPoint MultiDOFJointTrajectoryPoint`)
	add(false, "shape_msgs", `Mesh MeshTriangle Plane SolidPrimitive`)
	add(false, "std_msgs", `Header Bool Byte ByteMultiArray Char ColorRGBA Empty Float32 Float32MultiArray
		Float64 Float64MultiArray Int16 Int16MultiArray Int32 Int32MultiArray Int64 Int64MultiArray Int8
		Int8MultiArray MultiArrayDimension MultiArrayLayout String UInt16 UInt16MultiArray UInt32
		UInt32MultiArray UInt64 UInt64MultiArray UInt8 UInt8MultiArray`)
	add(true, "actionlib_msgs", `GoalStatusArray`)
	add(false, "actionlib_msgs", `GoalID GoalStatus`)
	add(true, "geometry_msgs", `AccelStamped AccelWithCovarianceStamped InertiaStamped PointStamped
		PolygonStamped PoseArray PoseStamped PoseWithCovarianceStamped QuaternionStamped TransformStamped
		TwistStamped TwistWithCovarianceStamped Vector3Stamped VelocityStamped WrenchStamped
		PolygonInstanceStamped`)
	add(false, "geometry_msgs", `Accel AccelWithCovariance Inertia Point Point32 Polygon PolygonInstance Pose
		Pose2D PoseWithCovariance Quaternion Transform Twist TwistWithCovariance Vector3 Wrench`)
	add(true, "visualization_msgs", `Marker ImageMarker InteractiveMarker InteractiveMarkerFeedback InteractiveMarkerPose`)
	add(false, "visualization_msgs", `MarkerArray InteractiveMarkerUpdate InteractiveMarkerInit
		InteractiveMarkerControl MenuEntry MeshFile UVCoordinate`)
	add(false, "tf2_msgs", `TFMessage TF2Error`)
	add(false, "rcl_interfaces", `Log ParameterEvent`)
	add(false, "rosgraph_msgs", `Clock`)
	add(false, "action_msgs", `GoalStatusArray GoalStatus GoalInfo`) // status_list / goal_info / goal_id first
	add(false, "rosbag2_interfaces", `WriteSplitEvent`)              // string closed_file first
	add(true, "vision_msgs", `Detection2D Detection2DArray Detection3D Detection3DArray BoundingBox2DArray
		BoundingBox3DArray Classification LabelInfo VisionInfo`)
	add(false, "vision_msgs", `BoundingBox2D BoundingBox3D ObjectHypothesis ObjectHypothesisWithPose Point2D
		Pose2D VisionClass`)
	add(true, "control_msgs", `JointTrajectoryControllerState DynamicJointState JointControllerState JointJog
		PidState MultiDOFStateStamped SingleDOFStateStamped SteeringControllerStatus
		MecanumDriveControllerState DynamicInterfaceGroupValues`)
	add(true, "ackermann_msgs", `AckermannDriveStamped`)
	add(false, "ackermann_msgs", `AckermannDrive`)
	add(true, "gps_msgs", `GPSFix GPSStatus`)
	add(true, "radar_msgs", `RadarScan RadarTracks`)
	add(false, "radar_msgs", `RadarReturn RadarTrack`)
	add(true, "nav2_msgs", `Costmap CostmapFilterInfo CostmapUpdate ParticleCloud SpeedLimit VoxelGrid`)
	add(true, "gazebo_msgs", `PerformanceMetrics`)
	add(true, "autoware_auto_perception_msgs", `DetectedObjects TrackedObjects PredictedObjects BoundingBoxArray
		ClassifiedRoiArray PointClusters TrafficSignalArray TrafficSignalStamped TrafficLightRoiArray
		LookingTrafficSignal`)
	add(true, "autoware_auto_planning_msgs", `Trajectory Path PathWithLaneId Route HADMapRoute OrderMovement`)
	add(true, "autoware_auto_mapping_msgs", `HADMapBin`)
	add(true, "autoware_auto_vehicle_msgs", `VelocityReport WheelEncoder VehicleKinematicState`)
	add(true, "autoware_auto_geometry_msgs", `RelativePositionWithCovarianceStamped`)
	return m
}()
