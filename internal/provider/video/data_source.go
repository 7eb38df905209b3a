package video

// The videohost_video data source: one video with its status, read by its id.

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/videohost/terraform-provider-videohost/internal/provider/framework"
	"github.com/videohost/terraform-provider-videohost/internal/videohost"
)

// NewVideoDataSource returns the videohost_video data source: one video, read by id.
func NewVideoDataSource() datasource.DataSource {
	return framework.NewObjectDataSource("_video", framework.ObjectRead[videoWithStatus]{
		Description: "Reads one video of the workspace by its id, with its status: whether it can be played, " +
			"the state of each encoded quality, and the size of its source.",
		Attributes:    videoWithStatusDataAttributes,
		IdDescription: "Identifier of the video to read (the service's `videoId`).",
		IdWhat:        "a video (its videoId)", ListedBy: "videohost_videos",
		IdParam: "videoId", Title: "Video",
		Get:   getVideoWithStatus,
		State: videoWithStatusModelFrom,
	})
}

// getVideoWithStatus reads the video id, then its status.
func getVideoWithStatus(c *videohost.Client, ctx context.Context, id string) (videoWithStatus, error) {
	v, err := c.GetVideo(ctx, id)
	if err != nil {
		return videoWithStatus{}, err
	}
	st, err := c.GetVideoStatus(ctx, id)
	if err != nil {
		return videoWithStatus{}, err
	}
	return videoWithStatus{video: v, status: st}, nil
}
