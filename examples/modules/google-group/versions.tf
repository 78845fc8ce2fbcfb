terraform {
  # Mock providers in the tests need 1.7.
  required_version = ">= 1.7"

  required_providers {
    joinit = {
      source  = "joinit-community/joinit"
      version = "~> 0.1"
    }
    googleworkspace = {
      # hashicorp/googleworkspace is archived (last release v0.7.0); this
      # fork keeps its schema. Read against 0.11.5.
      source  = "SamuZad/googleworkspace"
      version = "~> 0.11"
    }
  }
}
