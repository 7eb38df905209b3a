package provider

// The videohost_video data source: one video with its status, read by its id.

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/videohost/terraform-provider-videohost/internal/videohost"
)

// NewVideoDataSource returns the videohost_video data source: one video, read by id.
func NewVideoDataSource() datasource.DataSource {
	return newObjectDataSource("_video", objectRead[videoWithStatus]{
		description: "Reads one video of the workspace by its id, with its status: whether it can be played, " +
			"the state of each encoded quality, and the size of its source.",
		attributes:    videoWithStatusDataAttributes,
		idDescription: "Identifier of the video to read (the service's `videoId`).",
		idWhat:        "a video (its videoId)", listedBy: "videohost_videos",
		idParam: "videoId", title: "Video",
		get:   getVideoWithStatus,
		state: videoWithStatusModelFrom,
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
