# A Fargate service whose tasks run the proxy as a sidecar in front of an app container (ecs/fargate-sidecar.json
# as a module), discovering the app's containers of cluster "shop" through their docker labels.

provider "aws" {
  region = "eu-west-1"
}

variable "subnet_ids" {
  description = "Private subnets of the tasks."
  type        = list(string)
}

variable "security_group_id" {
  description = "Security group of the tasks (allow the load balancer to port 8000)."
  type        = string
}

variable "target_group_arn" {
  description = "Target group (type ip, port 8000) of the load balancer in front of the proxies."
  type        = string
}

resource "aws_ecs_cluster" "shop" {
  name = "shop"
}

module "proxy" {
  source = "../.."

  name               = "shop-proxy"
  cluster_arn        = aws_ecs_cluster.shop.arn
  launch_type        = "FARGATE"
  subnet_ids         = var.subnet_ids
  security_group_ids = [var.security_group_id]
  image              = "123456789012.dkr.ecr.eu-west-1.amazonaws.com/proxy:1.0.0"
  desired_count      = 2
  watch_clusters     = [aws_ecs_cluster.shop.name]
  constraints        = "Label(`app`, `shop`)"
  target_group_arn   = var.target_group_arn

  app_container_definitions = [
    {
      name         = "app"
      image        = "123456789012.dkr.ecr.eu-west-1.amazonaws.com/shop:2.3.1"
      essential    = true
      memory       = 512
      portMappings = [{ containerPort = 3000, protocol = "tcp" }]
      dockerLabels = {
        "proxy.enable"                                      = "true"
        "app"                                               = "shop"
        "proxy.http.routers.shop.rule"                      = "Host(`shop.example.com`)"
        "proxy.http.routers.shop.entrypoints"               = "web"
        "proxy.http.routers.shop.service"                   = "shop"
        "proxy.http.services.shop.loadbalancer.server.port" = "3000"
      }
    },
  ]
}

output "proxy_task_role_arn" {
  description = "The proxy's read-only discovery role."
  value       = module.proxy.task_role_arn
}
