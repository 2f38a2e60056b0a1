data "aws_region" "current" {}

locals {
  network_mode = var.launch_type == "FARGATE" ? "awsvpc" : "bridge"

  # The command in the long flag form of ecs/*.json. Ping is configured in the environment, not here:
  # `proxy healthcheck` runs as a separate exec that sees the environment but not this command.
  command = concat(
    [
      "--entryPoints.web.address=:${var.web_port}",
      "--providers.clusterTasks=true",
      "--providers.clusterTasks.exposedByDefault=${var.exposed_by_default}",
      "--providers.clusterTasks.healthyTasksOnly=true",
      "--providers.clusterTasks.refreshSeconds=15",
    ],
    var.auto_discover_clusters ? ["--providers.clusterTasks.autoDiscoverClusters=true"] : ["--providers.clusterTasks.clusters=${join(",", var.watch_clusters)}"],
    var.constraints == null ? [] : ["--providers.clusterTasks.constraints=${var.constraints}"],
    var.ecs_anywhere ? ["--providers.clusterTasks.ecsAnywhere=true"] : [],
    var.consul_http_addr == null ? [] : [
      "--providers.registryCatalog=true",
      "--providers.registryCatalog.endpoint.address=${var.consul_http_addr}",
      "--providers.registryCatalog.exposedByDefault=false",
      "--providers.registryCatalog.watch=true",
    ],
    var.consul_http_addr != null && var.consul_connect ? [
      "--providers.registryCatalog.connectAware=true",
      "--providers.registryCatalog.serviceName=${var.name}",
      "--providers.registryCatalog.selfRegistration.port=${var.web_port}",
      "--providers.registryCatalog.selfRegistration.connect=true",
    ] : [],
    var.extra_flags,
  )

  # The proxy container: the same structure as the "proxy" container of ecs/*.json.
  proxy_container = {
    name      = "proxy"
    image     = var.image
    essential = true
    memory    = var.proxy_memory
    portMappings = [
      merge({ containerPort = var.web_port, protocol = "tcp" }, local.network_mode == "bridge" ? { hostPort = var.web_port } : {}),
    ]
    environment = [
      { name = "PROXY_PING", value = "true" },
      { name = "AWS_REGION", value = data.aws_region.current.name },
    ]
    # The token is injected by ECS from Secrets Manager/SSM at task start; Terraform only knows its ARN.
    secrets = var.consul_token_arn == null ? [] : [
      { name = "CONSUL_HTTP_TOKEN", valueFrom = var.consul_token_arn },
    ]
    command = local.command
    healthCheck = {
      command     = ["CMD", "proxy", "healthcheck"]
      interval    = 10
      timeout     = 5
      retries     = 3
      startPeriod = 20
    }
    logConfiguration = {
      logDriver = "awslogs"
      options = {
        "awslogs-group"         = aws_cloudwatch_log_group.proxy.name
        "awslogs-region"        = data.aws_region.current.name
        "awslogs-stream-prefix" = "proxy"
      }
    }
  }
}

resource "aws_cloudwatch_log_group" "proxy" {
  name              = "/ecs/${var.name}"
  retention_in_days = var.log_retention_days
  tags              = var.tags
}

resource "aws_ecs_task_definition" "proxy" {
  family                   = var.name
  network_mode             = local.network_mode
  requires_compatibilities = [var.launch_type]
  cpu                      = var.launch_type == "FARGATE" ? tostring(var.cpu) : null
  memory                   = var.launch_type == "FARGATE" ? tostring(var.memory) : null
  task_role_arn            = aws_iam_role.task.arn
  execution_role_arn       = aws_iam_role.execution.arn
  container_definitions    = jsonencode(concat([local.proxy_container], var.app_container_definitions))
  tags                     = var.tags
}

resource "aws_ecs_service" "proxy" {
  name            = var.name
  cluster         = var.cluster_arn
  task_definition = aws_ecs_task_definition.proxy.arn
  desired_count   = var.desired_count
  launch_type     = var.launch_type
  tags            = var.tags

  dynamic "network_configuration" {
    for_each = local.network_mode == "awsvpc" ? [1] : []
    content {
      subnets          = var.subnet_ids
      security_groups  = var.security_group_ids
      assign_public_ip = var.assign_public_ip
    }
  }

  dynamic "load_balancer" {
    for_each = var.target_group_arn == null ? [] : [var.target_group_arn]
    content {
      target_group_arn = load_balancer.value
      container_name   = "proxy"
      container_port   = var.web_port
    }
  }

  lifecycle {
    precondition {
      condition     = var.auto_discover_clusters || length(var.watch_clusters) > 0
      error_message = "Set watch_clusters, or auto_discover_clusters = true."
    }
    precondition {
      condition     = var.launch_type != "FARGATE" || length(var.subnet_ids) > 0
      error_message = "FARGATE needs subnet_ids."
    }
  }
}
