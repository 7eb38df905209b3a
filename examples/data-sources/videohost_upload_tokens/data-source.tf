# The fingerprints of every upload token of the workspace, the newest first, with when each
# expires (null: never).
data "videohost_upload_tokens" "all" {
  sort_by    = "createdAt"
  sort_order = "desc"
}

output "upload_token_expiry" {
  value = { for t in data.videohost_upload_tokens.all.upload_tokens : t.id => t.expires_at }
}
