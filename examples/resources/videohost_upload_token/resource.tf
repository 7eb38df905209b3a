# A token that lets a partner upload videos into the workspace for a week, without the API key.
# Its id is the token's fingerprint; the token itself is sensitive.
resource "videohost_upload_token" "partner" {
  ttl = 7 * 24 * 3600
}

output "partner_upload_token" {
  value     = videohost_upload_token.partner.token
  sensitive = true
}
