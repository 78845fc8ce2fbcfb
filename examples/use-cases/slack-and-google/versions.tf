# The providers read their credentials from the environment (main.tf says
# which variables).

terraform {
  required_version = ">= 1.7"

  required_providers {
    joinit = {
      source  = "joinit-community/joinit"
      version = "~> 0.1"
    }
    slack = {
      source  = "pablovarela/slack"
      version = "~> 1.2"
    }
    googleworkspace = {
      source  = "SamuZad/googleworkspace"
      version = "~> 0.11"
    }
  }
}

# The organization guard for both syncs: a record of another organization
# fails the one read.
provider "joinit" {
  organization_id = var.joinit_organization_id
}

provider "slack" {} # SLACK_TOKEN

provider "googleworkspace" {
  oauth_scopes = ["https://www.googleapis.com/auth/admin.directory.group.member"]
}
