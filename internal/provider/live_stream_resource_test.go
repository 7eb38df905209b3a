package provider

import (
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/videohost/terraform-provider-videohost/internal/videohost"
)

func TestLiveStreamErrorsOnTheirAttribute(t *testing.T) {
	for name, tc := range map[string]struct {
		err  *videohost.Error
		want path.Path
	}{
		"a restream's address": {
			&videohost.Error{Status: 400, Title: "An attribute is invalid.", Name: "restreams[2][serverUrl]",
				Detail: "Missing app name: [rtmp|rtmps]://[host]/[app name]."},
			path.Root("restreams").AtListIndex(2).AtName("server_url"),
		},
		"a restream's name": {
			&videohost.Error{Status: 400, Title: "An attribute is invalid.", Name: "restreams[0][name]", Detail: "This value should not be blank."},
			path.Root("restreams").AtListIndex(0).AtName("name"),
		},
		"too many restreams": {
			&videohost.Error{Status: 400, Title: "An attribute is invalid.", Name: "restreams",
				Detail: "This collection should contain 5 elements or less."},
			path.Root("restreams"),
		},
		"the name": {
			&videohost.Error{Status: 400, Title: "This attribute is required.", Name: "name"},
			path.Root("name"),
		},
		"the live stream itself": {
			&videohost.Error{Status: 404, Title: "The requested resource could not be found.", Name: "liveStreamId"},
			path.Root("id"),
		},
		"a player theme that does not exist": {
			&videohost.Error{Status: 404, Title: "The requested resource could not be found.", Name: "playerId"},
			path.Root("player_id"),
		},
	} {
		t.Run(name, func(t *testing.T) {
			var diags diag.Diagnostics
			addAPIErrorDiagnostics(&diags, "Unable to Update Live Stream", tc.err, testProviderData(), liveStreamAttributePaths)
			if len(diags) != 1 {
				t.Fatalf("diagnostics %v", diags)
			}
			d, ok := diags[0].(diag.DiagnosticWithPath)
			if !ok || !d.Path().Equal(tc.want) {
				t.Fatalf("diagnostic %v is not on %s", diags[0], tc.want)
			}
		})
	}
}

func restream(name, url, key string, woVersion int64) restreamResourceModel {
	r := restreamResourceModel{Name: types.StringValue(name), ServerURL: types.StringValue(url),
		StreamKey: types.StringNull(), StreamKeyWO: types.StringNull(), StreamKeyWOVersion: types.Int64Null()}
	if woVersion == 0 {
		r.StreamKey = types.StringValue(key)
	} else {
		r.StreamKeyWOVersion = types.Int64Value(woVersion)
	}
	return r
}

func TestRestreamsToSendTakesWriteOnlyKeysFromTheConfig(t *testing.T) {
	planned := []restreamResourceModel{restream("a", "rtmp://h/a", "key-a", 0), restream("b", "rtmp://h/b", "", 3)}
	configured := []restreamResourceModel{planned[0], planned[1]}
	configured[1].StreamKeyWO = types.StringValue("key-b-wo")
	got := restreamsToSend(planned, configured)
	want := []videohost.Restream{{Name: "a", ServerURL: "rtmp://h/a", StreamKey: "key-a"}, {Name: "b", ServerURL: "rtmp://h/b", StreamKey: "key-b-wo"}}
	if len(got) != 2 || got[0] != want[0] || got[1] != want[1] {
		t.Fatalf("sent %+v, want %+v", got, want)
	}
}

func TestLiveStreamStateKeepsNoWriteOnlyKey(t *testing.T) {
	ls := videohost.LiveStream{
		ID: "li1", Name: "studio", StreamKey: "ingest-key", Public: true,
		Restreams: []videohost.Restream{{Name: "a", ServerURL: "rtmp://h/a", StreamKey: "key-a"}, {Name: "b", ServerURL: "rtmp://h/b", StreamKey: "key-b"}},
	}
	prior := []restreamResourceModel{restream("a", "rtmp://h/a", "old-key-a", 0), restream("b", "rtmp://h/b", "", 7)}
	m, diags := liveStreamResourceModelFrom(t.Context(), ls, prior, true)
	if diags.HasError() {
		t.Fatal(diags)
	}
	got, diags := restreamsOf(t.Context(), m.Restreams)
	if diags.HasError() || len(got) != 2 {
		t.Fatalf("restreams %v %v", got, diags)
	}
	if got[0].StreamKey.ValueString() != "key-a" {
		t.Errorf("a key kept in the state is %v, want the service's (a change outside Terraform shows)", got[0].StreamKey)
	}
	if !got[1].StreamKey.IsNull() || !got[1].StreamKeyWO.IsNull() || got[1].StreamKeyWOVersion.ValueInt64() != 7 {
		t.Errorf("a write-only restream is %+v, want no key and version 7", got[1])
	}
	if !m.PlayerID.IsNull() || m.StreamKey.ValueString() != "ingest-key" {
		t.Errorf("model %+v", m)
	}

	// No restreams: null unless the configuration wrote a list.
	ls.Restreams = []videohost.Restream{}
	if m, _ := liveStreamResourceModelFrom(t.Context(), ls, nil, false); !m.Restreams.IsNull() {
		t.Errorf("no restreams and none configured: %v, want null", m.Restreams)
	}
	if m, _ := liveStreamResourceModelFrom(t.Context(), ls, nil, true); m.Restreams.IsNull() || len(m.Restreams.Elements()) != 0 {
		t.Errorf("no restreams and an empty list configured: %v, want an empty list", m.Restreams)
	}
}

func TestLiveStreamHolds(t *testing.T) {
	f := false
	in := videohost.CreateLiveStreamInput{Name: "s", Public: &f, PlayerID: "pt1",
		Restreams: []videohost.Restream{{Name: "a", ServerURL: "rtmp://h/a", StreamKey: "k"}}}
	l := videohost.LiveStream{Name: "s", Public: false, PlayerID: "pt1", Restreams: in.Restreams}
	if !liveStreamHolds(l, in) {
		t.Error("the live stream with the values sent does not match")
	}
	l.Restreams = []videohost.Restream{{Name: "a", ServerURL: "rtmp://h/a", StreamKey: "other"}}
	if liveStreamHolds(l, in) {
		t.Error("a live stream with another restream key matches")
	}
	if !liveStreamHolds(videohost.LiveStream{Name: "s", Public: true, Restreams: []videohost.Restream{}}, videohost.CreateLiveStreamInput{Name: "s"}) {
		t.Error("a live stream with the defaults does not match a create of only its name")
	}
	if liveStreamHolds(videohost.LiveStream{Name: "s2", Public: true}, videohost.CreateLiveStreamInput{Name: "s"}) {
		t.Error("a live stream whose name only contains the name matches")
	}
}
