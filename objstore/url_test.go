package objstore

import "testing"

func TestParseURL(t *testing.T) {
	cases := []struct {
		in, bucket, key string
		bad             bool
	}{
		{"s3://b/k/run.mcap", "b", "k/run.mcap", false},
		{"s3://b/prefix/", "b", "prefix/", false},
		{"s3://b", "b", "", false},
		{"s3:///k", "", "", true},
		{"/local/path", "", "", true},
	}
	for _, c := range cases {
		l, err := ParseURL(c.in)
		if (err != nil) != c.bad || l.Bucket != c.bucket || l.Key != c.key {
			t.Errorf("ParseURL(%q) = %+v, %v", c.in, l, err)
		}
	}
	if got := (Location{Bucket: "b", Key: "p"}).Child("m.yaml").String(); got != "s3://b/p/m.yaml" {
		t.Errorf("Child: %s", got)
	}
}

// TestPathStyle: only AWS's own endpoints keep virtual-host addressing.
func TestPathStyle(t *testing.T) {
	for ep, aws := range map[string]bool{
		"https://s3.eu-west-1.amazonaws.com": true, "https://s3.cn-north-1.amazonaws.com.cn": true,
		"http://127.0.0.1:7070": false, "https://minio.lab:9000": false, "https://amazonaws.com.evil.example": false,
	} {
		if isAWS(ep) != aws {
			t.Errorf("isAWS(%q) = %v", ep, !aws)
		}
	}
}

func TestSortSplits(t *testing.T) {
	objs := []Info{{Loc: Location{Key: "r/x_10.mcap"}}, {Loc: Location{Key: "r/x_2.mcap"}}, {Loc: Location{Key: "r/x_0.mcap"}}}
	SortSplits(objs)
	if objs[0].Loc.Key != "r/x_0.mcap" || objs[1].Loc.Key != "r/x_2.mcap" || objs[2].Loc.Key != "r/x_10.mcap" {
		t.Errorf("order %v", objs)
	}
}
