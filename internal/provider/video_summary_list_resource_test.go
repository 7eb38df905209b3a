package provider

import (
	"testing"

	"github.com/hashicorp/terraform-plugin-go/tftypes"

	"github.com/videohost/terraform-provider-videohost/internal/emulator"
	"github.com/videohost/terraform-provider-videohost/internal/videohost"
)

// TestVideoSummaryIdentityAndListProtocol imports a summary by identity (its text read from its
// source) and lists the summaries for terraform query, all of them and those of one video.
func TestVideoSummaryIdentityAndListProtocol(t *testing.T) {
	emu, baseURL := serveEmulator(t, emulator.Options{}, nil)
	p := newProtoServer(t, baseURL, emu.APIKeys()[0], nil)
	c := serviceClient(t, &accEnv{BaseURL: baseURL, APIKey: emu.APIKeys()[0], Emu: emu})
	yes := true
	var videoIDs []string
	for _, title := range []string{"one", "two"} {
		v, err := c.CreateVideo(t.Context(), videohost.VideoCreate{Title: title, TranscriptSummary: &yes})
		if err != nil {
			t.Fatal(err)
		}
		videoIDs = append(videoIDs, v.ID)
	}
	found, err := c.ListSummaries(t.Context(), videohost.SummaryFilter{VideoID: videoIDs[0]})
	if err != nil || len(found) != 1 {
		t.Fatalf("the summary of transcript_summary: %v, %v", found, err)
	}
	id := found[0].ID
	state, identity, diags := p.importResource("videohost_video_summary", "", map[string]tftypes.Value{"id": str(id)})
	requireNoErrors(t, "ImportResourceState", diags)
	if stringOf(state["id"]) != id || stringOf(identity["id"]) != id {
		t.Errorf("import by identity: state id %q, identity %q, want %q", stringOf(state["id"]), stringOf(identity["id"]), id)
	}
	state, _, diags = p.read("videohost_video_summary", map[string]tftypes.Value{"id": str(id)})
	requireNoErrors(t, "ReadResource", diags)
	if stringOf(state["video_id"]) != videoIDs[0] || stringOf(state["origin"]) != "auto" || stringOf(state["abstract"]) == "" {
		t.Errorf("read after import: video %q, origin %q, abstract %q", stringOf(state["video_id"]), stringOf(state["origin"]), stringOf(state["abstract"]))
	}

	all := p.list(listQuery{TypeName: "videohost_video_summary", IncludeResource: true, Limit: 100})
	if len(all) != 2 {
		t.Fatalf("%d results, want 2", len(all))
	}
	for _, r := range all {
		requireNoErrors(t, "ListResource", r.Diagnostics)
		if stringOf(r.Resource["id"]) != stringOf(r.Identity["id"]) || r.DisplayName == "" {
			t.Errorf("result %q (%q): resource id %q", stringOf(r.Identity["id"]), r.DisplayName, stringOf(r.Resource["id"]))
		}
	}
	one := p.list(listQuery{TypeName: "videohost_video_summary", Limit: 100, Config: map[string]tftypes.Value{"video_id": str(videoIDs[1])}})
	if len(one) != 1 || one[0].DisplayName != "summary of video "+videoIDs[1]+" (auto, completed)" {
		t.Errorf("the video_id filter gave %d results: %+v", len(one), one)
	}
}
