terraform {
  # Output preconditions and `terraform test` need 1.6; mocks of the
  # providers in the tests, 1.7.
  required_version = ">= 1.7"

  required_providers {
    joinit = {
      source  = "joinit-community/joinit"
      version = "~> 0.1"
    }
    azuread = {
      source  = "hashicorp/azuread"
      version = "~> 3.9"
    }
  }
}
