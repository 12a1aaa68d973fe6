// The open company's event stream, shared by every page through context; what it says that concerns
// the viewer is also said as toasts (LiveToasts).
import { useQueryClient } from '@tanstack/react-query';
import { createContext, useContext, useEffect, useState, type ReactNode } from 'react';
import { LiveToasts } from '../components/toasts/LiveToasts';
import { CompanyEvents, type LiveState } from '../live/company-events';

const LiveContext = createContext<CompanyEvents | null>(null);

export function LiveCompany({ companyId, children }: { companyId: string; children: ReactNode }) {
  const queryClient = useQueryClient();
  const [events, setEvents] = useState<CompanyEvents | null>(null);
  useEffect(() => {
    const opened = new CompanyEvents(companyId, queryClient);
    setEvents(opened);
    return () => opened.close();
  }, [companyId, queryClient]);
  return (
    <LiveContext.Provider value={events}>
      {children}
      <LiveToasts companyId={companyId} events={events} />
    </LiveContext.Provider>
  );
}

/** The open company's stream (null before it opens, or outside a company). */
export function useCompanyEvents(): CompanyEvents | null {
  return useContext(LiveContext);
}

export function useLiveState(): LiveState {
  const events = useCompanyEvents();
  const [state, setState] = useState<LiveState>(events?.state ?? 'connecting');
  useEffect(() => {
    if (!events) return;
    setState(events.state);
    return events.onState(setState);
  }, [events]);
  return state;
}
