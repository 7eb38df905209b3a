terraform {
  required_providers {
    videohost = {
      source  = "videohost/videohost"
      version = "~> 0.1.0"
    }
  }
}

# The API key is read from VIDEOHOST_API_KEY, so that it stays out of the configuration and the
# source tree. The sandbox is the default environment, and bearer tokens the default scheme.
provider "videohost" {
  environment = "sandbox"
}

# A second configuration for production, with the key passed in from a sensitive variable and
# HTTP Basic authentication instead of bearer tokens.
variable "production_api_key" {
  type      = string
  sensitive = true
  default   = null
}

provider "videohost" {
  alias       = "production"
  environment = "production"
  api_key     = var.production_api_key
  auth_scheme = "basic"
  max_retries = 8
}
