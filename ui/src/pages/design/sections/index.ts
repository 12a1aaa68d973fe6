// The /_design page's sections, in order. A new component's section is one module here and one line below.
import type { ComponentType } from 'react';
import { BannerSection } from './BannerSection';
import { ButtonSection } from './ButtonSection';
import { ComboboxSection } from './ComboboxSection';
import { DataTableSection } from './DataTableSection';
import { DialogSection } from './DialogSection';
import { DisplaySection } from './DisplaySection';
import { FileInputSection } from './FileInputSection';
import { FilterChipsSection } from './FilterChipsSection';
import { LabelsSection } from './LabelsSection';
import { MenuSection } from './MenuSection';
import { PluginBlocksSection } from './PluginBlocksSection';
import { PopoverSection } from './PopoverSection';
import { PropertyRowSection } from './PropertyRowSection';
import { SkeletonSection } from './SkeletonSection';
import { TabsSection } from './TabsSection';
import { ToastSection } from './ToastSection';
import { TooltipSection } from './TooltipSection';

export interface DesignSection {
  id: string;
  title: string;
  Component: ComponentType;
}

export const SECTIONS: DesignSection[] = [
  { id: 'buttons', title: 'Buttons', Component: ButtonSection },
  { id: 'tooltips', title: 'Kbd and Tooltip', Component: TooltipSection },
  { id: 'menus', title: 'Menu', Component: MenuSection },
  { id: 'popovers', title: 'Popover', Component: PopoverSection },
  { id: 'comboboxes', title: 'Combobox and Select', Component: ComboboxSection },
  { id: 'tabs', title: 'Tabs', Component: TabsSection },
  { id: 'dialogs', title: 'Dialog and Sheet', Component: DialogSection },
  { id: 'toasts', title: 'Toast', Component: ToastSection },
  { id: 'banners', title: 'Banner', Component: BannerSection },
  { id: 'skeletons', title: 'Skeleton', Component: SkeletonSection },
  { id: 'file-inputs', title: 'File input', Component: FileInputSection },
  { id: 'display', title: 'Display components', Component: DisplaySection },
  { id: 'property-rows', title: 'PropertyRow', Component: PropertyRowSection },
  { id: 'data-table', title: 'DataTable', Component: DataTableSection },
  { id: 'filter-chips', title: 'FilterChips', Component: FilterChipsSection },
  { id: 'labels', title: 'Label chips', Component: LabelsSection },
  { id: 'plugin-blocks', title: 'Plugin blocks', Component: PluginBlocksSection },
];
