// Package tag holds the `videohost_tags` data source: the tags that the workspace's videos
// carry, with how many videos carry each.
package tag
