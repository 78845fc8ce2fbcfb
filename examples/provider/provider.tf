terraform {
  required_providers {
    joinit = {
      source  = "joinit-community/joinit"
      version = "~> 0.1"
    }
  }
}

# The access token is a secret: leave access_token unset and export
# JOINIT_ACCESS_TOKEN. The environment variable reaches the provider only;
# a Terraform variable (TF_VAR_..., -var) is written into saved plan files,
# which `terraform show -json` prints, sensitive or not.

provider "joinit" {
  # The API address defaults to https://app.joinitapi.com, the service's API
  # host (or JOINIT_BASE_URL when set). Set it for a sandbox or a proxy:
  # base_url = "http://127.0.0.1:8080"

  # Optional tuning; the values shown are the defaults.
  max_concurrent_requests = 4
  request_timeout         = "60s"
  max_retries             = 5
  max_retry_wait          = "60s" # a longer Retry-After fails the plan at once

  # Only needed when your deployment serves a list under another path.
  # endpoint_paths = {
  #   payments = "/api/v1/organizations/me/payments"
  #   groups   = "/api/v1/organizations/me/groups"
  # }
}
