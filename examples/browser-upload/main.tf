# The upload token that the browser page of `make browser-test` uploads with: the page gets the
# token, never the API key. The provider reads its key and address from VIDEOHOST_API_KEY and
# VIDEOHOST_BASE_URL (the emulator's https address), which scripts/browser-test.sh sets.
terraform {
  required_version = ">= 1.11"
  required_providers {
    videohost = {
      source  = "videohost/videohost"
      version = "~> 0.1.0"
    }
  }
}

# An hour is enough for a page that uploads at once; the token is deleted with the destroy.
resource "videohost_upload_token" "page" {
  ttl = 3600
}

output "upload_token" {
  value     = videohost_upload_token.page.token
  sensitive = true
}
