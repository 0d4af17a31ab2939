"""Dependencies as Annotated aliases."""

from __future__ import annotations

from typing import Annotated

from fastapi import Depends, Request

from hearts.server.settings import Settings
from hearts.server.tables.registry import TableRegistry


def get_registry(request: Request) -> TableRegistry:
    registry: TableRegistry = request.app.state.registry
    return registry


def get_settings(request: Request) -> Settings:
    settings: Settings = request.app.state.settings
    return settings


RegistryDep = Annotated[TableRegistry, Depends(get_registry)]
SettingsDep = Annotated[Settings, Depends(get_settings)]
