terraform {
  # Mock providers in the tests need 1.7.
  required_version = ">= 1.7"

  required_providers {
    joinit = {
      source  = "joinit-community/joinit"
      version = "~> 0.1"
    }
    slack = {
      # Read against 1.2.2, its last release (April 2023).
      source  = "pablovarela/slack"
      version = "~> 1.2"
    }
  }
}
