# Every upload token of the workspace, by fingerprint (the token itself only with
# include_resource, where it is sensitive).
list "videohost_upload_token" "all" {
  provider = videohost
}
